# Run EXE with ARGS and compare its standard output with the file GOLDEN.
string(REPLACE "," ";" ARGS "${ARGS}")
execute_process(COMMAND ${EXE} ${ARGS} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} ${ARGS} exited with ${rc}")
endif()
file(READ ${GOLDEN} want)
if(NOT out STREQUAL want)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/golden.actual "${out}")
  message(FATAL_ERROR "output of '${ARGS}' differs from ${GOLDEN}; actual output in "
                      "${CMAKE_CURRENT_BINARY_DIR}/golden.actual (regenerate the file if the change is intended)")
endif()
