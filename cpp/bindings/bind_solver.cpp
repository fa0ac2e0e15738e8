// Bindings of the solo solver: options in, solutions and statistics out. Types only; the search
// runs on worker threads while this thread, GIL released between polls, watches for Ctrl-C.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <climits>
#include <exception>
#include <future>

#include "bindings/checks.h"
#include "bindings/interrupt.h"
#include "core/position.h"
#include "solver/exact.h"
#include "solver/pattern.h"
#include "solver/repair.h"
#include "solver/solo.h"

namespace py = pybind11;
using namespace trigon;

namespace {

// A list or tuple of Python ints (exactly: bool and numpy ints are the API's to refuse or
// convert) as a vector, read without pybind11's generic casters: a small pattern puzzle is solved
// in microseconds and those cost a few of them. TypeError for anything else.
std::vector<int> exact_ints(const py::handle& seq, const char* what) {
    if (!PyList_Check(seq.ptr()) && !PyTuple_Check(seq.ptr()))
        throw py::type_error(std::string(what) + " must be a list or tuple of ints");
    PyObject* fast = seq.ptr();
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject** items = PySequence_Fast_ITEMS(fast);
    std::vector<int> out(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        if (!PyLong_CheckExact(items[i])) throw py::type_error(std::string(what) + " must be ints");
        int overflow = 0;
        const long v = PyLong_AsLongAndOverflow(items[i], &overflow);
        if (overflow || v < INT_MIN || v > INT_MAX) throw py::value_error(std::string(what) + ": an int out of range");
        out[static_cast<std::size_t>(i)] = static_cast<int>(v);
    }
    return out;
}

std::array<int, kNumPieces> piece_counts(const std::vector<int>& counts) {
    if (counts.size() != kNumPieces) throw py::value_error("piece counts need 22 entries");
    std::array<int, kNumPieces> pc{};
    for (int p = 0; p < kNumPieces; ++p) pc[p] = counts[p];
    return pc;
}

solver::PatternOptions pattern_options(bool all_solutions, bool unique, long long max_stored, double time_limit,
                                       const std::string& method, int threads, long long first) {
    if (threads < 1 || threads > 64) throw py::value_error("threads must be 1..64");
    if (first < 1) throw py::value_error("first must be >= 1");
    if (method != "frontier" && method != "mrv" && method != "auto")
        throw py::value_error("method must be 'auto', 'frontier' or 'mrv'");
    solver::PatternOptions o;
    o.all_solutions = all_solutions;
    o.unique = unique;
    o.max_stored = max_stored;
    o.time_limit = time_limit;
    o.method = method == "mrv"        ? solver::PatternMethod::Mrv
               : method == "frontier" ? solver::PatternMethod::Frontier
                                      : solver::PatternMethod::Auto;
    o.threads = threads;
    o.first = first;
    return o;
}

// Calls a search's progress callback: true to go on. None goes on, other replies by Python's
// truth (False, 0 or "" stop it); a reply without one (an array) raises, as the callback's errors do.
bool callback_goes_on(const py::object& callback, const py::dict& progress) {
    const py::object reply = callback(progress);
    if (reply.is_none()) return true;
    const int truth = PyObject_IsTrue(reply.ptr());
    if (truth < 0) throw py::error_already_set();
    return truth != 0;
}

// Runs a pattern search on this thread with the GIL released, polling for Ctrl-C; with a
// callback, it is called every interval with {'nodes', 'solutions', 'seconds'} (the search's
// progress so far). A falsy reply stops the search as Ctrl-C does; an exception stops it and is
// raised once it has ended.
template <class Solve>
solver::PatternResult solve_interruptibly(bool& interrupted, solver::PatternOptions& o, const py::object& callback,
                                          double interval, Solve&& solve) {
    const bindings::LongCall long_call;
    std::atomic<bool> stop{false};
    solver::PatternProgress progress;
    if (!callback.is_none()) o.progress = &progress;
    std::exception_ptr raised;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    solver::PatternResult r;
    try {
        const solver::PatternPoll poll = [&] {
            py::gil_scoped_acquire gil;
            if (bindings::consume_ctrl_c(interrupted)) return false;
            const auto now = std::chrono::steady_clock::now();
            if (callback.is_none() || std::chrono::duration<double>(now - last).count() < interval) return true;
            last = now;
            try {
                py::dict d;
                d["nodes"] = progress.nodes.load(std::memory_order_relaxed);
                d["solutions"] = progress.count.load(std::memory_order_relaxed);
                d["seconds"] = std::chrono::duration<double>(now - t0).count();
                if (callback_goes_on(callback, d)) return true;
                interrupted = true;
                return false;
            } catch (...) {
                raised = std::current_exception();
                return false;
            }
        };
        py::gil_scoped_release release;
        r = solve(&stop, poll);
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
    if (raised) std::rethrow_exception(raised);
    return r;
}

// (count, solutions, exhausted, impossible, nodes, seconds, symmetries, method, interrupted): a
// tuple, not a dict, as small puzzles return in microseconds.
py::tuple pattern_tuple(const solver::PatternResult& r, bool interrupted) {
    py::list solutions(r.solutions.size());
    for (std::size_t i = 0; i < r.solutions.size(); ++i) solutions[i] = py::cast(r.solutions[i]);
    return py::make_tuple(r.count, std::move(solutions), r.exhausted, r.impossible, r.nodes, r.seconds, r.symmetries,
                          r.method == solver::PatternMethod::Mrv ? "mrv" : "frontier", interrupted);
}

// (colour, placement id) pairs as a list of tuples.
py::list moves_list(const std::vector<std::pair<int, int>>& moves) {
    py::list out;
    for (auto [c, id] : moves) out.append(py::make_tuple(c, id));
    return out;
}

py::dict solution_dict(const solver::SoloSolution& s) {
    py::dict d;
    d["moves"] = moves_list(s.moves);
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
    d["all_found"] = s.all_found;
    return d;
}

// What a watched search reports: a callback, how often, and the node count the search adds to.
struct Watch {
    py::object callback = py::none();
    double interval = 0.25;
    const std::atomic<long long>* nodes = nullptr;
};

// Runs f() on a worker thread; this thread waits with the GIL released and turns Ctrl-C into
// `stop` (the work then returns what it has). With a callback, it is called every interval with
// {'nodes', 'seconds'}; a falsy reply stops the work as Ctrl-C does, an exception stops it and
// is raised once the work has ended. Exceptions from f propagate. (f takes copies of
// Python-owned arguments: other Python threads run while it does.)
template <class F>
auto run_interruptible(std::atomic<bool>& stop, bool& interrupted, F&& f, const Watch& watch = {}) {
    const bindings::LongCall long_call;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    auto fut = std::async(std::launch::async, std::forward<F>(f));
    for (;;) {
        std::future_status st;
        {
            py::gil_scoped_release release;
            st = fut.wait_for(std::chrono::milliseconds(20));
        }
        if (st == std::future_status::ready) break;
        if (bindings::consume_ctrl_c(interrupted)) stop.store(true);
        const auto now = std::chrono::steady_clock::now();
        if (watch.callback.is_none() || stop.load() || std::chrono::duration<double>(now - last).count() < watch.interval)
            continue;
        last = now;
        try {
            py::dict d;
            d["nodes"] = watch.nodes ? watch.nodes->load(std::memory_order_relaxed) : 0;
            d["seconds"] = std::chrono::duration<double>(now - t0).count();
            if (!callback_goes_on(watch.callback, d)) {
                interrupted = true;
                stop.store(true);
            }
        } catch (...) {
            stop.store(true);
            {
                py::gil_scoped_release release;
                fut.wait();
            }
            throw;
        }
    }
    return fut.get();
}

py::dict exact_dict(const solver::ExactResult& r, bool interrupted) {
    py::dict d;
    d["answer"] = r.answer;
    d["proven"] = r.proven && !interrupted;
    d["max_triangles"] = r.max_triangles;
    d["witness"] = moves_list(r.witness);
    d["best_layout"] = moves_list(r.best_layout);
    d["best_triangles"] = r.best_triangles;
    d["nodes"] = r.nodes;
    d["seconds"] = r.seconds;
    d["interrupted"] = interrupted;
    return d;
}

}  // namespace

void bind_solver(py::module_& m) {
    m.def("layout_key", [](const Position& p) { return py::bytes(solver::layout_key(p)); }, py::arg("position"),
          "Canonical key of the layout on the board, equal for layouts alike up to the 12 symmetries and a renaming of colours.");
    m.def(
        "can_place_all",
        [](const Position& start, int colours, double time_limit, long long node_limit, bool heuristic, int threads,
           bool least_slack, bool both_orders, bool transpositions, py::object callback, double callback_interval) {
            if (colours < 0 || colours > 0xF) throw py::value_error("colours must be a bit mask of 0..3");
            if (threads < 1 || threads > 64) throw py::value_error("threads must be 1..64");
            solver::ExactOptions o;
            o.threads = threads;
            o.colours = static_cast<std::uint8_t>(colours);
            o.time_limit = time_limit;
            o.node_limit = node_limit;
            o.heuristic = heuristic;
            o.least_slack = least_slack;
            o.both_orders = both_orders;
            o.transpositions = transpositions;
            std::atomic<long long> progress{0};
            o.progress = &progress;
            std::atomic<bool> stop{false};
            bool interrupted = false;
            auto r = run_interruptible(stop, interrupted, [&, start = start] { return solver::can_place_all(start, o, &stop); },
                                       Watch{callback, callback_interval, &progress});
            return exact_dict(r, interrupted);
        },
        py::arg("start"), py::arg("colours"), py::arg("time_limit") = 10.0, py::arg("node_limit") = 0,
        py::arg("heuristic") = true, py::arg("threads") = 1, py::arg("least_slack") = false, py::arg("both_orders") = true,
        py::arg("transpositions") = true, py::arg("callback") = py::none(), py::arg("callback_interval") = 0.25,
        "Exhaustive search: can the colours place all their remaining pieces if the others stop? callback({'nodes', "
        "'seconds'}) every callback_interval seconds; a falsy reply stops it (interrupted).");
    m.def(
        "repair_layout",
        [](const Position& start, int colours, const std::vector<std::pair<int, int>>& layout, double seconds,
           long long nodes, long long step_nodes, std::uint64_t seed, bool accept, long long accept_nodes) {
            if (colours < 0 || colours > 0xF) throw py::value_error("colours must be a bit mask of 0..3");
            for (auto [c, id] : layout) {
                if (c < 0 || c >= kNumColours) throw py::value_error("layout: colour must be 0..3");
                if (id < 0 || id >= start.table().num_placements()) throw py::value_error("layout: no such placement");
            }
            if (!(seconds >= 0) || nodes < 0 || step_nodes < 1 || accept_nodes < 1 || (seconds <= 0 && nodes <= 0))
                throw py::value_error("give seconds > 0 or nodes > 0 (and step_nodes, accept_nodes >= 1)");
            solver::RepairBudget budget;
            budget.seconds = seconds;
            budget.nodes = nodes;
            budget.step_nodes = step_nodes;
            budget.accept = accept;
            budget.accept_nodes = accept_nodes;
            std::atomic<bool> stop{false};
            bool interrupted = false;
            auto r = run_interruptible(stop, interrupted, [&, start = start] {
                return solver::repair_layout(start, static_cast<std::uint8_t>(colours), layout, budget, seed, &stop);
            });
            py::dict d;
            d["found"] = r.found;
            d["witness"] = moves_list(r.witness);
            d["nodes"] = r.nodes;
            d["steps"] = r.steps;
            d["improved"] = moves_list(r.improved);
            d["improved_area"] = r.improved_area;
            d["interrupted"] = interrupted;
            return d;
        },
        py::arg("start"), py::arg("colours"), py::arg("layout"), py::arg("seconds") = 0.0, py::arg("nodes") = 0,
        py::arg("step_nodes") = 5000, py::arg("seed") = 0, py::arg("accept") = false, py::arg("accept_nodes") = 3000,
        "Repairs of a layout ((colour, id) pairs, legal colour by colour): its moves around an empty cell taken out, "
        "every piece left placed by a short exhaustive search; found, witness (legal in order), nodes, steps; with "
        "accept, going on from layouts that place no fewer triangles: improved (legal in order, when it places more "
        "than the layout given, else empty) and improved_area.");
    m.def(
        "max_placeable",
        [](const Position& start, int colour, double time_limit, long long node_limit, bool heuristic, py::object callback,
           double callback_interval) {
            if (colour < 0 || colour >= kNumColours) throw py::value_error("colour must be 0..3");
            solver::ExactOptions o;
            o.time_limit = time_limit;
            o.node_limit = node_limit;
            o.heuristic = heuristic;
            std::atomic<long long> progress{0};
            o.progress = &progress;
            std::atomic<bool> stop{false};
            bool interrupted = false;
            auto r = run_interruptible(stop, interrupted, [&, start = start] { return solver::max_placeable(start, colour, o, &stop); },
                                       Watch{callback, callback_interval, &progress});
            return exact_dict(r, interrupted);
        },
        py::arg("start"), py::arg("colour"), py::arg("time_limit") = 10.0, py::arg("node_limit") = 0,
        py::arg("heuristic") = true, py::arg("callback") = py::none(), py::arg("callback_interval") = 0.25,
        "Branch and bound (after guided dives when heuristic): most triangles the colour can still place alone "
        "(exact when proven).");
    py::class_<solver::PreparedPattern>(m, "PatternPuzzle",
                                        "A region and pieces prepared once (placements inside, search tables).")
        .def(py::init([](int side, const py::object& cells, const py::object& counts) {
                 try {
                     return std::make_unique<solver::PreparedPattern>(side, exact_ints(cells, "cells"),
                                                                      piece_counts(exact_ints(counts, "piece counts")));
                 } catch (const std::invalid_argument& e) {
                     throw py::value_error(e.what());
                 }
             }),
             py::arg("side"), py::arg("cells"), py::arg("counts"))
        .def_property_readonly("side", &solver::PreparedPattern::side)
        .def_property_readonly("cells", &solver::PreparedPattern::cells)
        .def_property_readonly("impossible", &solver::PreparedPattern::impossible)
        .def_property_readonly("num_placements", &solver::PreparedPattern::num_placements)
        .def_property_readonly("prepare_seconds", &solver::PreparedPattern::prepare_seconds)
        .def(
            "solve",
            [](const solver::PreparedPattern& puzzle, bool all_solutions, bool unique, long long max_stored,
               double time_limit, const std::string& method, int threads, long long first, py::object callback,
               double callback_interval) {
                auto o = pattern_options(all_solutions, unique, max_stored, time_limit, method, threads, first);
                bool interrupted = false;
                const auto r = solve_interruptibly(interrupted, o, callback, callback_interval,
                                                   [&](const std::atomic<bool>* stop, const solver::PatternPoll& poll) {
                                                       return puzzle.solve(o, stop, poll);
                                                   });
                return pattern_tuple(r, interrupted);
            },
            py::arg("all_solutions") = false, py::arg("unique") = false, py::arg("max_stored") = 1000,
            py::arg("time_limit") = 60.0, py::arg("method") = "auto", py::arg("threads") = 1, py::arg("first") = 1,
            py::arg("callback") = py::none(), py::arg("callback_interval") = 0.25,
            "Exact cover of the prepared region (GIL released; Ctrl-C stops it). callback({'nodes', 'solutions', "
            "'seconds'}) every callback_interval seconds; a falsy reply stops it (interrupted).");
    m.def(
        "solve_pattern",
        [](int side, const py::object& cell_list, const py::object& count_list, bool all_solutions, bool unique,
           long long max_stored, double time_limit, const std::string& method, int threads, long long first,
           py::object callback, double callback_interval) {
            auto o = pattern_options(all_solutions, unique, max_stored, time_limit, method, threads, first);
            bindings::check_side(side);
            const std::vector<int> cells = exact_ints(cell_list, "cells");
            const auto pc = piece_counts(exact_ints(count_list, "piece counts"));
            bool interrupted = false;
            const auto r = solve_interruptibly(interrupted, o, callback, callback_interval,
                                               [&](const std::atomic<bool>* stop, const solver::PatternPoll& poll) {
                                                   return solver::solve_pattern(side, cells, pc, o, stop, poll);
                                               });
            return pattern_tuple(r, interrupted);
        },
        py::arg("side"), py::arg("cells"), py::arg("counts"), py::arg("all_solutions") = false,
        py::arg("unique") = false, py::arg("max_stored") = 1000, py::arg("time_limit") = 60.0,
        py::arg("method") = "auto", py::arg("threads") = 1, py::arg("first") = 1, py::arg("callback") = py::none(),
        py::arg("callback_interval") = 0.25,
        "Exact cover of board cells by a multiset of pieces (counts per piece index); callback as PatternPuzzle.solve's.");

    m.def(
        "solve_solo",
        [](const Position& start, const std::vector<int>& start_cells, std::uint64_t seed, double time_limit, int threads,
           int count, bool triangle_last, long long restart_nodes, py::object callback, double callback_interval,
           py::object on_solution) {
            if (start_cells.size() != kNumColours) throw py::value_error("start_cells needs one entry per colour (4)");
            if (threads < 1 || threads > 256) throw py::value_error("threads must be 1..256");
            if (count < 1) throw py::value_error("count must be >= 1");
            const int n = start.table().geo().num_cells();
            solver::SoloOptions o;
            for (int c = 0; c < kNumColours; ++c) {
                if (start_cells[c] < -1 || start_cells[c] >= n) throw py::value_error("start cell out of range");
                for (int k = 0; k < c; ++k)  // (the search would look for a layout that cannot exist)
                    if (start_cells[c] >= 0 && start_cells[k] == start_cells[c])
                        throw py::value_error("a start cell given to two colours");
                o.start_cells[c] = start_cells[c];
            }
            o.seed = seed;
            o.time_limit = time_limit;
            o.threads = threads;
            o.count = count;
            o.triangle_last = triangle_last;
            o.restart_nodes = restart_nodes;
            const bindings::LongCall long_call;
            solver::SoloSearch search(start, o);
            search.start();
            bool interrupted = false;
            auto last_callback = std::chrono::steady_clock::now();
            std::size_t delivered = 0;  // solutions handed to on_solution so far
            if (!on_solution.is_none()) search.taken(0);  // (the workers wait for it: not outrun)
            // A Python callable's reply: false stops the search (as Ctrl-C: the result says so); its
            // exception stops it too and is raised once the workers are joined.
            const auto goes_on = [&](const py::object& f, const py::dict& arg) {
                bool go_on = true;
                try {
                    go_on = callback_goes_on(f, arg);
                } catch (...) {
                    search.stop();
                    {
                        py::gil_scoped_release release;
                        search.join();
                    }
                    throw;
                }
                if (!go_on) {
                    interrupted = true;
                    search.stop();
                }
                return go_on;
            };
            while (!search.done()) {
                {
                    py::gil_scoped_release release;
                    search.wait_for(on_solution.is_none() ? 0.02 : 0.002);  // (a consumer keeps up)
                }
                if (bindings::consume_ctrl_c(interrupted)) {
                    // Ctrl-C: keep the best found so far and hand it back instead of raising.
                    search.stop();
                    break;
                }
                // New solutions go to Python while the workers search on (it makes games of them:
                // done after the search, that made a call for many solutions overrun its time).
                if (!on_solution.is_none()) {
                    for (const auto& s : search.solutions(delivered)) {
                        ++delivered;
                        py::dict d = solution_dict(s);
                        d["stats"] = stats_dict(search.stats());  // (the search's so far: a stream's solutions carry them)
                        const bool go_on = goes_on(on_solution, d);
                        search.taken(delivered);
                        if (!go_on) break;
                    }
                }
                if (interrupted) break;
                if (!callback.is_none() &&
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - last_callback).count() >=
                        callback_interval) {
                    last_callback = std::chrono::steady_clock::now();
                    goes_on(callback, stats_dict(search.stats()));
                }
            }
            {
                py::gil_scoped_release release;
                search.join();
            }
            py::dict out;
            py::list sols;
            for (const auto& s : search.solutions(delivered)) sols.append(solution_dict(s));
            out["solutions"] = sols;  // (those not handed to on_solution)
            out["delivered"] = delivered;
            out["best"] = solution_dict(search.best());
            out["stats"] = stats_dict(search.stats());
            out["interrupted"] = interrupted;
            return out;
        },
        py::arg("start"), py::arg("start_cells"), py::arg("seed") = 0, py::arg("time_limit") = 60.0,
        py::arg("threads") = 1, py::arg("count") = 1, py::arg("triangle_last") = true, py::arg("restart_nodes") = 0,
        py::arg("callback") = py::none(), py::arg("callback_interval") = 0.25, py::arg("on_solution") = py::none(),
        "Solo puzzle search from a position: {'solutions': [...], 'delivered': int, 'best': {...}, 'stats': {...}, "
        "'interrupted': bool}. on_solution(solution) gets each solution as it is found, with the search's 'stats' so "
        "far (those are not in 'solutions'; 'delivered' counts them); a falsy reply stops the search as the "
        "callback's does. A time_limit <= 0: none.");
}
