// The private extension trigon_fast._core: one bind_* function per area.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_core(py::module_& m);
void bind_search(py::module_& m);
void bind_solver(py::module_& m);
void bind_batch(py::module_& m);

PYBIND11_MODULE(_core, m) {
    m.doc() = "trigon_fast C++ core (private: use the trigon_fast package)";
    bind_core(m);
    bind_search(m);
    bind_solver(m);
    bind_batch(m);
}
