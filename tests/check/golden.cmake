# Golden-file test of `mpiguide check` (tests/check/CMakeLists.txt):
#   cmake -DEXE=mpiguide -DARGS=a,b,c -DWORKDIR=dir -DGOLDEN=file [-DOUTDIR=dir -DFILE=name] -P golden.cmake
# runs EXE ARGS in WORKDIR and compares its standard output with GOLDEN; with FILE, compares
# OUTDIR/FILE instead (OUTDIR is removed first). Set MG_REGENERATE=1 in the environment to
# rewrite the golden file from the actual output (then review the diff).
string(REPLACE "," ";" ARGS "${ARGS}")
if(OUTDIR)
  file(REMOVE_RECURSE ${OUTDIR})
endif()
execute_process(COMMAND ${EXE} ${ARGS} WORKING_DIRECTORY ${WORKDIR} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} ${ARGS} exited with ${rc}: ${err}")
endif()
if(FILE)
  file(READ ${OUTDIR}/${FILE} out)
endif()
if(DEFINED ENV{MG_REGENERATE})
  file(WRITE ${GOLDEN} "${out}")
  return()
endif()
file(READ ${GOLDEN} want)
if(NOT out STREQUAL want)
  get_filename_component(name ${GOLDEN} NAME)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}.actual "${out}")
  message(FATAL_ERROR "output of 'mpiguide ${ARGS}' differs from ${GOLDEN}; actual output in "
                      "${CMAKE_CURRENT_BINARY_DIR}/${name}.actual (MG_REGENERATE=1 rewrites the golden file)")
endif()
