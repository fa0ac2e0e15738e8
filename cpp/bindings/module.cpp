// The private extension trigon_fast._core: one bind_* function per area.
#include <pybind11/pybind11.h>

#include "bindings/checks.h"
#include "bindings/interrupt.h"

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
    m.def("_end_long_calls", &trigon::bindings::end_long_calls, py::arg("seconds"),
          "At the interpreter's exit (the package registers it with atexit): ends the long calls under way "
          "in other threads, as Ctrl-C does, and waits for them (at most `seconds`); none starts after.");
    // OutOfRange as trigon_fast.errors.OutOfRangeError (found at the first one: the package
    // imports this module first); an IndexError where the package is not there.
    py::register_exception_translator([](std::exception_ptr raised) {
        try {
            if (raised) std::rethrow_exception(raised);
        } catch (const trigon::bindings::OutOfRange& e) {
            static PyObject* error_class = [] {
                PyObject* errors = PyImport_ImportModule("trigon_fast.errors");
                PyObject* cls = errors ? PyObject_GetAttrString(errors, "OutOfRangeError") : nullptr;
                Py_XDECREF(errors);
                if (!cls) PyErr_Clear();
                return cls ? cls : PyExc_IndexError;  // (kept for the process's life)
            }();
            PyErr_SetString(error_class, e.what());
        }
    });
}
