# Installed the way HPC sites install tools (README.md, "Installing"): man pages and bash
# completion made from the built command (packaging/gen-docs.sh), an Lmod modulefile per MPI, and
# Debian packages made by cpack from this build directory, one per MPI beside each other:
#
#   mpiguide-<mpi>   the command and libmpiguide built for <mpi>, with its header, CMake package
#                    and pkg-config file, all under /usr/lib/<multiarch>/mpiguide/<mpi> (one prefix
#                    per MPI, as Debian's libhdf5-openmpi and libhdf5-mpich do), and its modulefile
#                    /usr/share/modulefiles/mpiguide/<version>-<mpi>.lua
#   mpiguide-common  /usr/bin/mpiguide (runs the one of MPIGUIDE_MPI, of the launcher or of the default mpirun), the
#                    site shim /usr/lib/<multiarch>/mpiguide/libmpiguide-preload.so (libc only; an
#                    architecture's package, not "all", for it) and its modulefile
#                    /usr/share/modulefiles/mpiguide-site/<version>.lua, the man pages, the bash
#                    completion, Lmod's way to the modulefiles (/etc/lmod/modules/mpiguide and
#                    mpiguide-site, Debian's lmod searches /etc/lmod/modules)
#   mpiguide-doc     docs/*.md and README.md in /usr/share/doc/mpiguide
#   each also /usr/share/doc/<package>/copyright and changelog.Debian.gz
#
# cpack --config <build>/CPackDeb-<package>.cmake makes one (the target `debs` all three of this
# build, after building what they hold). Install components: mpi, module (the relocatable modulefiles of `cmake --install`),
# preload (the shim beside libmpiguide), common, doc; the deb* ones are for the packages only (EXCLUDE_FROM_ALL).

if(MPIGUIDE_MPI_FLAVOR STREQUAL "smpi")
  return() # nothing to install for the simulated MPI
endif()

if(MPIGUIDE_CLI)
  set(MG_GEN ${CMAKE_BINARY_DIR}/generated/docs)
  add_custom_command(OUTPUT ${MG_GEN}/stamp
    COMMAND bash ${PROJECT_SOURCE_DIR}/packaging/gen-docs.sh $<TARGET_FILE:mpiguide_cli> ${PROJECT_SOURCE_DIR} ${MG_GEN}
    COMMAND ${CMAKE_COMMAND} -E touch ${MG_GEN}/stamp
    DEPENDS mpiguide_cli ${PROJECT_SOURCE_DIR}/packaging/gen-docs.sh ${PROJECT_SOURCE_DIR}/docs/library.md
    COMMENT "Man pages and bash completion from the commands' help texts and option tables" VERBATIM)
  add_custom_target(mpiguide_docs ALL DEPENDS ${MG_GEN}/stamp)
  install(DIRECTORY ${MG_GEN}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR} COMPONENT common)
  install(FILES ${MG_GEN}/bash-completion/mpiguide DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          COMPONENT common)
endif()

# The modulefiles: found from their own place (cmake/mpiguide-module.lua.in), so the one that
# `cmake --install` writes works wherever the prefix moves.
set(_mg_module_name ${PROJECT_VERSION}-${MPIGUIDE_MPI_FLAVOR}.lua)
set(MG_MODULE_DIR ${CMAKE_INSTALL_DATADIR}/modulefiles/mpiguide)
file(RELATIVE_PATH MG_MODULE_TO_ROOT_1 /p/${MG_MODULE_DIR} /p)
set(MG_MODULE_TO_ROOT "\"${MG_MODULE_TO_ROOT_1}\"")
set(MG_ROOT_TO_DATADIR ${CMAKE_INSTALL_DATADIR})
set(MG_MODULE_ROOT ${CMAKE_INSTALL_PREFIX})
string(TOUPPER "MPIGUIDE_LIB_${MPIGUIDE_MPI_FLAVOR}" MG_LIB_VAR) # what the shim reads for this MPI
configure_file(cmake/mpiguide-module.lua.in ${CMAKE_BINARY_DIR}/module/install/${_mg_module_name} @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/module/install/${_mg_module_name} DESTINATION ${MG_MODULE_DIR} COMPONENT module)
# The site shim and its modulefile mpiguide-site/<version> (cmake/mpiguide-site-module.lua.in):
# `cmake --install` puts the shim beside libmpiguide.so.0 (component preload), where it finds that
# one for programs of this MPI (and the other MPI's through MPIGUIDE_LIB_<MPI>); the packages put it
# in mpiguide-common at /usr/lib/<multiarch>/mpiguide, above both MPIs' roots (src/site/preload.c).
set(_mg_site_name ${PROJECT_VERSION}.lua)
set(MG_SITE_DIR ${CMAKE_INSTALL_DATADIR}/modulefiles/mpiguide-site)
file(RELATIVE_PATH _mg_site_rel /p/${MG_SITE_DIR} /p/${CMAKE_INSTALL_LIBDIR}/libmpiguide-preload.so)
set(MG_SITE_TO_SHIM "\"${_mg_site_rel}\"")
set(MG_SITE_SHIM ${CMAKE_INSTALL_FULL_LIBDIR}/libmpiguide-preload.so)
set(MG_SITE_STORE "${MPIGUIDE_PROFILE_STORE_DEFAULT}") # the store every job reads (docs/site.md)
configure_file(cmake/mpiguide-site-module.lua.in ${CMAKE_BINARY_DIR}/module/install-site/${_mg_site_name} @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/module/install-site/${_mg_site_name} DESTINATION ${MG_SITE_DIR} COMPONENT module)
install(TARGETS mpiguide_preload LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT preload)

# ---- the packages ----
set(MG_DEB_ROOT lib/${CMAKE_LIBRARY_ARCHITECTURE}/mpiguide/${MPIGUIDE_MPI_FLAVOR}) # under /usr
file(RELATIVE_PATH MG_MODULE_TO_ROOT_1 /usr/share/modulefiles/mpiguide /usr/${MG_DEB_ROOT})
file(RELATIVE_PATH _mg_from_etc /etc/lmod/modules/mpiguide /usr/${MG_DEB_ROOT})
set(MG_MODULE_TO_ROOT "\"${MG_MODULE_TO_ROOT_1}\", \"${_mg_from_etc}\"")
file(RELATIVE_PATH MG_ROOT_TO_DATADIR /usr/${MG_DEB_ROOT} /usr/share)
set(MG_MODULE_ROOT /usr/${MG_DEB_ROOT})
configure_file(cmake/mpiguide-module.lua.in ${CMAKE_BINARY_DIR}/module/deb/${_mg_module_name} @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/module/deb/${_mg_module_name} DESTINATION share/modulefiles/mpiguide
        COMPONENT debmodule EXCLUDE_FROM_ALL)
# `mpiguide env` finds the docs in <root>/${CMAKE_INSTALL_DOCDIR}: there, a link to mpiguide-doc's.
get_filename_component(_mg_docparent ${CMAKE_INSTALL_DOCDIR} DIRECTORY)
file(RELATIVE_PATH _mg_doclink /usr/${MG_DEB_ROOT}/${_mg_docparent} /usr/share/doc/mpiguide)
install(CODE "file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_mg_docparent}\")
  file(CREATE_LINK ${_mg_doclink} \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}\" SYMBOLIC)"
  COMPONENT debdoclink EXCLUDE_FROM_ALL)
set(MG_DEB_SHIM lib/${CMAKE_LIBRARY_ARCHITECTURE}/mpiguide/libmpiguide-preload.so) # under /usr
file(RELATIVE_PATH _mg_site_rel /usr/share/modulefiles/mpiguide-site /usr/${MG_DEB_SHIM})
file(RELATIVE_PATH _mg_site_etc /etc/lmod/modules/mpiguide-site /usr/${MG_DEB_SHIM})
set(MG_SITE_TO_SHIM "\"${_mg_site_rel}\", \"${_mg_site_etc}\"")
set(MG_SITE_SHIM /usr/${MG_DEB_SHIM})
set(MG_SITE_STORE /etc/mpiguide/profiles) # the packages' store (docs/site.md); a site edits the module
configure_file(cmake/mpiguide-site-module.lua.in ${CMAKE_BINARY_DIR}/module/deb-site/${_mg_site_name} @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/module/deb-site/${_mg_site_name} DESTINATION share/modulefiles/mpiguide-site
        COMPONENT debcommon EXCLUDE_FROM_ALL)
install(TARGETS mpiguide_preload LIBRARY DESTINATION lib/${CMAKE_LIBRARY_ARCHITECTURE}/mpiguide
        COMPONENT debcommon EXCLUDE_FROM_ALL)
configure_file(cmake/mpiguide-dispatch.sh.in ${CMAKE_BINARY_DIR}/deb/mpiguide @ONLY)
install(PROGRAMS ${CMAKE_BINARY_DIR}/deb/mpiguide DESTINATION bin COMPONENT debcommon EXCLUDE_FROM_ALL)
install(CODE "file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/etc/lmod/modules\")
  file(CREATE_LINK ../../../usr/share/modulefiles/mpiguide \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/etc/lmod/modules/mpiguide\" SYMBOLIC)
  file(CREATE_LINK ../../../usr/share/modulefiles/mpiguide-site \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/etc/lmod/modules/mpiguide-site\" SYMBOLIC)"
  COMPONENT debetc EXCLUDE_FROM_ALL)

# What the command needs beyond the shared libraries dpkg-shlibdeps finds: the launcher.
if(MPIGUIDE_MPI_FLAVOR STREQUAL "openmpi")
  set(_mg_launcher openmpi-bin)
else()
  set(_mg_launcher mpich)
endif()
set(_mg_b ${CMAKE_BINARY_DIR})
# Every package's /usr/share/doc/PACKAGE (Debian policy 12.5, 12.7): copyright, the project's license
# statement in the machine-readable format (packaging/copyright), and changelog.Debian.gz, made here
# from the version (gzip -9n: no name, no time stamp; the date is SOURCE_DATE_EPOCH's when set).
string(TIMESTAMP _mg_deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${_mg_b}/deb/changelog.Debian "mpiguide (${PROJECT_VERSION}) unstable; urgency=medium

  * mpiguide ${PROJECT_VERSION}, packaged by cpack from its sources (cmake/packaging.cmake).

 -- mpiguide developers <mpiguide@localhost>  ${_mg_deb_date}
")
execute_process(COMMAND gzip -9n -c ${_mg_b}/deb/changelog.Debian OUTPUT_FILE ${_mg_b}/deb/changelog.Debian.gz
                COMMAND_ERROR_IS_FATAL ANY)
# mg_deb(PACKAGE "CPack settings" COMPONENT DIR [COMPONENT DIR...]): <build>/CPackDeb-PACKAGE.cmake, a
# package of the components, each installed (`cmake --install --component`, into cpack's DESTDIR)
# under its DIR. cpack runs the installs as a script (CPACK_INSTALL_SCRIPT): with
# CPACK_INSTALL_CMAKE_PROJECTS it would first make the target preinstall, which walks the whole
# build (10 s per package on this machine, loaded).
function(mg_deb pkg settings)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${_mg_b}/deb/changelog.Debian.gz DESTINATION share/doc/${pkg}
          COMPONENT debdoc-${pkg} EXCLUDE_FROM_ALL)
  list(APPEND ARGN debdoc-${pkg} /usr) # its copyright and changelog
  set(_script "")
  while(ARGN)
    list(POP_FRONT ARGN _comp _dir)
    string(APPEND _script "execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${_mg_b}\" --component ${_comp}
  --prefix \"\${CMAKE_INSTALL_PREFIX}${_dir}\" COMMAND_ERROR_IS_FATAL ANY)\n")
  endwhile()
  file(WRITE ${_mg_b}/CPackDeb-${pkg}-install.cmake "${_script}")
  file(WRITE ${_mg_b}/CPackDeb-${pkg}.cmake "set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${pkg})
set(CPACK_PACKAGING_INSTALL_PREFIX /)
set(CPACK_INSTALL_SCRIPT ${_mg_b}/CPackDeb-${pkg}-install.cmake)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT \"mpiguide developers <mpiguide@localhost>\")
set(CPACK_PACKAGE_FILE_NAME ${pkg}) # replaced by the next line
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # <name>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_PACKAGE_DIRECTORY ${_mg_b}/debs)
${settings}")
endfunction()

mg_deb(mpiguide-${MPIGUIDE_MPI_FLAVOR} "
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY \"MPI performance guidelines checker and libmpiguide, for ${MPIGUIDE_MPI_NAME}\")
set(CPACK_PACKAGE_DESCRIPTION \"The mpiguide command and libmpiguide built for ${MPIGUIDE_MPI_NAME}, in /usr/${MG_DEB_ROOT}; module load mpiguide/${PROJECT_VERSION}-${MPIGUIDE_MPI_FLAVOR} puts it first.\")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS \"${_mg_launcher}, mpiguide-common (= ${PROJECT_VERSION})\")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS mpiguide-doc)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS lmod)"
  mpi /usr/${MG_DEB_ROOT} debdoclink /usr/${MG_DEB_ROOT} debmodule /usr)
mg_deb(mpiguide-common "
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY \"MPI performance guidelines checker: command, site shim, man pages, completion\")
set(CPACK_PACKAGE_DESCRIPTION \"/usr/bin/mpiguide runs the mpiguide of mpiguide-openmpi or mpiguide-mpich; /usr/${MG_DEB_SHIM}, the site shim (no MPI: in LD_PRELOAD it gives an MPI program the libmpiguide of its MPI), and its modulefile mpiguide-site/${PROJECT_VERSION}; man pages mpiguide(1), mpiguide-<command>(1), libmpiguide(7); bash completion; the Lmod modulefiles' folders in /etc/lmod/modules.\")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS \"mpiguide-openmpi | mpiguide-mpich, mpiguide-doc, bash-completion\")"
  common /usr debcommon /usr debetc /)
mg_deb(mpiguide-doc "
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PACKAGE_SECTION doc)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY \"MPI performance guidelines checker: documentation\")
set(CPACK_PACKAGE_DESCRIPTION \"The user documentation of mpiguide (Markdown) in /usr/share/doc/mpiguide.\")"
  doc /usr)
add_custom_target(debs
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${_mg_b}/CPackDeb-mpiguide-${MPIGUIDE_MPI_FLAVOR}.cmake
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${_mg_b}/CPackDeb-mpiguide-common.cmake
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${_mg_b}/CPackDeb-mpiguide-doc.cmake
  DEPENDS ${MG_INSTALL_TARGETS} mpiguide_preload $<$<TARGET_EXISTS:mpiguide_docs>:mpiguide_docs>
  COMMENT "Debian packages into ${_mg_b}/debs" VERBATIM)
