# A Spack recipe for mpiguide (docs/site.md): `spack repo add packaging/spack` after copying this
# directory into a repository's packages/ (or `spack create`-style: packages/mpiguide/package.py),
# then `spack install mpiguide ^openmpi` or `^mpich`. One installation per MPI library, as the
# Debian packages are: libmpiguide and the command are built for the MPI they link.
#
# The variants are the CMake options a site chooses (CMakeLists.txt); tests/install/check_spack.py
# (CTest install.spack_recipe) checks that they, their defaults and the version match the build's.
# The options for developers (MPIGUIDE_WERROR, MPIGUIDE_FUZZ) are not variants; BUILD_TESTING is
# CMakePackage's own (on with `spack install --test=root`).
from spack.package import *


class Mpiguide(CMakePackage):
    """Checks an MPI library against the self-consistent MPI performance guidelines
    (mock-ups: MPI_Allreduce <= MPI_Reduce + MPI_Bcast, ...) and repairs what it finds:
    libmpiguide, preloaded or linked, replaces the library's slower operations by their
    faster mock-ups from a tuning profile, with no change to the application."""

    # where the project is published: set both where the recipe goes (a site's own repository)
    homepage = "https://example.org/mpiguide"
    git = "https://example.org/mpiguide.git"

    version("main", branch="main")
    version("0.1.0", tag="v0.1.0")

    variant("cli", default=True, description="Build the mpiguide command (check, tune, report, ...); needs GSL")
    variant("sanitize", default=False, description="Build with AddressSanitizer and UndefinedBehaviorSanitizer")

    depends_on("c", type="build")
    depends_on("cmake@3.24:", type="build")  # $<LINK_LIBRARY:WHOLE_ARCHIVE>
    depends_on("python@3:", type="build")  # src/lib/gen_wrappers.py writes the wrappers
    depends_on("mpi")
    depends_on("gsl", when="+cli")

    def cmake_args(self):
        return [
            self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc),
            self.define_from_variant("MPIGUIDE_CLI", "cli"),
            self.define_from_variant("MPIGUIDE_SANITIZE", "sanitize"),
        ]

    def setup_run_environment(self, env):
        # what `module load mpiguide` sets in the Debian packages' modulefile: the library to preload
        env.set("MPIGUIDE_LIB", join_path(self.prefix.lib, "libmpiguide.so.0"))
