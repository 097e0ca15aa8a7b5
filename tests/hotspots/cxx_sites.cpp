// C++ functions for the hot-spot table's short names (run_cxx_names.sh): a member of a class
// template, whose demangled signature is long, and a function in an anonymous namespace. Never run:
// the test resolves addresses in its executable with addr2line, as `mpiguide hotspots` does.
#include <vector>
namespace solver {
template <typename T, typename A> struct Integrator {
  T step(const std::vector<T, A> &x, int k) const { T s = 0; for (auto v : x) s += v * k; return s; }
};
}
namespace {
double helper(double x) { return x * 2; }
}
int main(int argc, char **) {
  std::vector<double> v(3, 1.0);
  solver::Integrator<double, std::allocator<double>> it;
  return (int)(it.step(v, argc) + helper(argc));
}
