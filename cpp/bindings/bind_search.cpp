// Bindings of the search: parameters, analysis results and the searcher. Types only; the GIL is
// released while searching and the calling thread polls for Ctrl-C, which stops the search.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/interrupt.h"
#include "search/mcts.h"

namespace py = pybind11;
using namespace trigon;
using namespace trigon::search;

void bind_search(py::module_& m) {
    py::register_exception<GameOverError>(m, "GameOverError", PyExc_ValueError);

    py::enum_<PlayoutKind>(m, "PlayoutKind")
        .value("UNIFORM", PlayoutKind::Uniform)
        .value("SAMPLED", PlayoutKind::Sampled);

    py::class_<Params>(m, "SearchParams", "Limits and knobs of one search.")
        .def(py::init<>())
        .def_property("side_of_colour",
                      [](const Params& p) { return std::vector<int>(p.side_of_colour.begin(), p.side_of_colour.end()); },
                      [](Params& p, const std::vector<int>& v) {
                          if (v.size() != kNumColours) throw py::value_error("side_of_colour needs 4 entries");
                          for (int i = 0; i < kNumColours; ++i) {
                              if (v[i] < 0 || v[i] >= kNumColours) throw py::value_error("side_of_colour entries must be 0..3");
                              p.side_of_colour[i] = static_cast<std::int8_t>(v[i]);
                          }
                      })
        .def_readwrite("threads", &Params::threads)
        .def_readwrite("seed", &Params::seed)
        .def_readwrite("max_simulations", &Params::max_simulations)
        .def_readwrite("max_seconds", &Params::max_seconds)
        .def_readwrite("max_nodes", &Params::max_nodes)
        .def_readwrite("exploration", &Params::exploration)
        .def_readwrite("prior_weight", &Params::prior_weight)
        .def_readwrite("use_priors", &Params::use_priors)
        .def_readwrite("attach_prior", &Params::attach_prior)
        .def_readwrite("block_prior", &Params::block_prior)
        .def_readwrite("score_weight", &Params::score_weight)
        .def_readwrite("expand_threshold", &Params::expand_threshold)
        .def_readwrite("playout", &Params::playout)
        .def_readwrite("playout_large_bias", &Params::playout_large_bias)
        .def_readwrite("playout_give_up", &Params::playout_give_up)
        .def_readwrite("reuse_tree", &Params::reuse_tree)
        .def_readwrite("progress_every_simulations", &Params::progress_every_simulations)
        .def_readwrite("progress_every_seconds", &Params::progress_every_seconds);

    py::class_<MoveInfo>(m, "MoveInfo")
        .def_readonly("move", &MoveInfo::move)
        .def_readonly("visits", &MoveInfo::visits)
        .def_readonly("value", &MoveInfo::value)
        .def_readonly("prior", &MoveInfo::prior)
        .def_readonly("value_per_colour", &MoveInfo::value_per_colour)
        .def_readonly("score_per_colour", &MoveInfo::score_per_colour);

    py::class_<Analysis>(m, "Analysis")
        .def_readonly("to_move", &Analysis::to_move)
        .def_readonly("best_move", &Analysis::best_move)
        .def_readonly("moves", &Analysis::moves)
        .def_readonly("pv", &Analysis::pv)
        .def_readonly("pv_colours", &Analysis::pv_colours)
        .def_readonly("value", &Analysis::value)
        .def_readonly("expected_score", &Analysis::expected_score)
        .def_readonly("simulations", &Analysis::simulations)
        .def_readonly("reused_visits", &Analysis::reused_visits)
        .def_readonly("seconds", &Analysis::seconds)
        .def_readonly("nodes", &Analysis::nodes)
        .def_readonly("forced", &Analysis::forced)
        .def_readonly("stopped", &Analysis::stopped);

    py::class_<Searcher>(m, "Searcher", "MCTS over a shared tree; keeps the tree between searches for reuse.")
        .def(py::init<>())
        .def("run", [](Searcher& s, const Position& pos, const Params& params, py::object progress,
                       std::optional<std::uint64_t> stops_seen) {
            // The workers search with the GIL released; this thread polls every few ms for
            // Ctrl-C (which ends the search with its best move so far) and runs the callback.
            bool interrupted = false;
            Searcher::Poll poll = [&interrupted] {
                py::gil_scoped_acquire gil;
                return !bindings::consume_ctrl_c(interrupted);
            };
            Searcher::Progress prog;
            if (!progress.is_none())
                prog = [&progress](const Analysis& a) {
                    py::gil_scoped_acquire gil;
                    progress(a);
                };
            // Copies: other Python threads may change the objects passed while the search runs.
            const Position start = pos;
            const Params limits = params;
            Analysis a;
            {
                const bindings::LongCall long_call;
                py::gil_scoped_release release;
                a = s.run(start, limits, poll, prog, stops_seen);
            }
            return py::make_tuple(a, interrupted);
        }, py::arg("position"), py::arg("params"), py::arg("progress") = py::none(), py::arg("stops_seen") = py::none(),
           "Searches a position: (Analysis, interrupted). Raises GameOverError for a finished game. stops_seen: "
           "stop_count when the caller's call began; a stop asked since ends this search too.")
        .def("stop", &Searcher::stop, "Ends a running search soon (from another thread).")
        .def_property_readonly("stop_count", &Searcher::stop_count, "Stops asked so far.")
        .def("clear", &Searcher::clear, "Forgets the tree.")
        .def_property_readonly("nodes", &Searcher::nodes)
        .def_property_readonly("memory_bytes", &Searcher::memory_bytes);

    m.attr("SEARCH_NODE_BYTES") = Searcher::kNodeBytes;
    m.def("level_simulations", &level_simulations, py::arg("level"), "Simulations of strength level 1..9.");
}
