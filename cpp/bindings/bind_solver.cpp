// Bindings of the solo solver: options in, solutions and statistics out. Types only; the search
// runs on worker threads while this thread, GIL released between polls, watches for Ctrl-C.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>

#include "core/position.h"
#include "solver/solo.h"

namespace py = pybind11;
using namespace trigon;

namespace {

py::dict solution_dict(const solver::SoloSolution& s) {
    py::dict d;
    py::list moves;
    for (auto [c, id] : s.moves) moves.append(py::make_tuple(c, id));
    d["moves"] = moves;
    d["complete"] = s.complete;
    d["scores"] = std::vector<int>(s.scores.begin(), s.scores.end());
    d["unplaced_triangles"] = s.unplaced_triangles;
    return d;
}

py::dict stats_dict(const solver::SoloStats& s) {
    py::dict d;
    d["nodes"] = s.nodes;
    d["restarts"] = s.restarts;
    d["seconds"] = s.seconds;
    d["best_placed"] = s.best_placed;
    d["target"] = s.target;
    d["solutions"] = s.solutions;
    return d;
}

}  // namespace

void bind_solver(py::module_& m) {
    m.def(
        "solve_solo",
        [](const Position& start, const std::vector<int>& start_cells, std::uint64_t seed, double time_limit, int threads,
           int count, bool triangle_last, long long restart_nodes, py::object callback, double callback_interval) {
            if (start_cells.size() != kNumColours) throw py::value_error("start_cells needs one entry per colour (4)");
            if (threads < 1 || threads > 256) throw py::value_error("threads must be 1..256");
            if (count < 1) throw py::value_error("count must be >= 1");
            const int n = start.table().geo().num_cells();
            solver::SoloOptions o;
            for (int c = 0; c < kNumColours; ++c) {
                if (start_cells[c] < -1 || start_cells[c] >= n) throw py::value_error("start cell out of range");
                o.start_cells[c] = start_cells[c];
            }
            o.seed = seed;
            o.time_limit = time_limit;
            o.threads = threads;
            o.count = count;
            o.triangle_last = triangle_last;
            o.restart_nodes = restart_nodes;
            solver::SoloSearch search(start, o);
            search.start();
            bool interrupted = false;
            auto last_callback = std::chrono::steady_clock::now();
            while (!search.done()) {
                {
                    py::gil_scoped_release release;
                    search.wait_for(0.02);
                }
                if (PyErr_CheckSignals() != 0) {
                    // Ctrl-C: keep the best found so far and hand it back instead of raising.
                    PyErr_Clear();
                    interrupted = true;
                    search.stop();
                    break;
                }
                if (!callback.is_none() &&
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - last_callback).count() >=
                        callback_interval) {
                    last_callback = std::chrono::steady_clock::now();
                    py::object r;
                    try {
                        r = callback(stats_dict(search.stats()));
                    } catch (...) {
                        search.stop();
                        {
                            py::gil_scoped_release release;
                            search.join();
                        }
                        throw;
                    }
                    if (!r.is_none() && !r.cast<bool>()) search.stop();
                }
            }
            {
                py::gil_scoped_release release;
                search.join();
            }
            py::dict out;
            py::list sols;
            for (const auto& s : search.solutions()) sols.append(solution_dict(s));
            out["solutions"] = sols;
            out["best"] = solution_dict(search.best());
            out["stats"] = stats_dict(search.stats());
            out["interrupted"] = interrupted;
            return out;
        },
        py::arg("start"), py::arg("start_cells"), py::arg("seed") = 0, py::arg("time_limit") = 60.0,
        py::arg("threads") = 1, py::arg("count") = 1, py::arg("triangle_last") = true, py::arg("restart_nodes") = 0,
        py::arg("callback") = py::none(), py::arg("callback_interval") = 0.25,
        "Solo puzzle search from a position: {'solutions': [...], 'best': {...}, 'stats': {...}, 'interrupted': bool}.");
}
