// Bindings of batched self-play and of the learning environment's state. Types only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "bindings/checks.h"
#include "bindings/interrupt.h"
#include "search/batch.h"

namespace py = pybind11;
using namespace trigon;
using namespace trigon::bindings;

namespace {

Policy parse_policy(const std::string& name) {
    if (name == "random") return Policy::Random;
    if (name == "greedy") return Policy::Greedy;
    if (name == "search") return Policy::Search;
    throw py::value_error("policy must be 'random', 'greedy' or 'search', not '" + name + "'");
}

}  // namespace

void bind_batch(py::module_& m) {
    m.attr("PLANE_CHANNELS") = kPlaneChannels;

    m.def("play_games", [](const Position& start_ref, long games, std::uint64_t seed, const std::string& policy,
                           int threads, bool observations, int level, const std::vector<int>& sides) {
        if (games < 0) throw py::value_error("games must be >= 0");
        const Position start = start_ref;  // a copy: the GIL is released (and re-taken) while games run
        // (each search thread holds a tree of its own: thousands would take gigabytes at once)
        if (threads < 0 || threads > 256) throw py::value_error("threads must be 0..256 (0: one per hardware thread)");
        BatchConfig cfg;
        cfg.policy = parse_policy(policy);
        cfg.level = level;
        cfg.games = games;
        cfg.seed = seed;
        cfg.threads = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
        if (cfg.policy == Policy::Search && (level < 1 || level > 9))
            throw py::value_error("level must be 1..9 for the search policy");
        if (sides.size() != kNumColours) throw py::value_error("sides needs 4 entries (side of each colour)");
        for (int c = 0; c < kNumColours; ++c) {
            if (sides[c] < 0 || sides[c] >= kNumColours) throw py::value_error("sides entries must be 0..3");
            cfg.side_of_colour[c] = static_cast<std::int8_t>(sides[c]);
        }
        const py::ssize_t n = games, mm = max_moves(start), cells = start.table().geo().num_cells();
        py::array_t<std::int16_t> moves({n, mm}), lengths(n), scores({n, py::ssize_t(kNumColours)});
        py::array_t<std::int8_t> colours({n, mm});
        BatchOutput out;
        out.moves = moves.mutable_data();
        out.colours = colours.mutable_data();
        out.lengths = lengths.mutable_data();
        out.scores = scores.mutable_data();
        py::dict d;
        if (observations) {
            py::array_t<std::int8_t> planes({n, mm, py::ssize_t(kPlaneChannels), cells});
            py::array_t<std::int8_t> pieces({n, mm, py::ssize_t(kNumColours), py::ssize_t(kNumPieces)});
            // Rows past a game's end are never written: zero them so the arrays are defined.
            std::fill(planes.mutable_data(), planes.mutable_data() + planes.size(), 0);
            std::fill(pieces.mutable_data(), pieces.mutable_data() + pieces.size(), 0);
            out.planes = planes.mutable_data();
            out.pieces = pieces.mutable_data();
            d["planes"] = planes;
            d["pieces"] = pieces;
        }
        std::vector<std::int8_t> finished(static_cast<std::size_t>(n), 0);
        out.finished = finished.data();
        bool interrupted = false;
        {
            const LongCall long_call;
            py::gil_scoped_release release;
            play_games(start, cfg, out, [&] {
                py::gil_scoped_acquire acquire;
                return !consume_ctrl_c(interrupted);
            });
        }
        d["moves"] = moves;
        d["colours"] = colours;
        d["lengths"] = lengths;
        d["scores"] = scores;
        if (interrupted) {
            // Ctrl-C: the games played to their end before the first one that was not (game i
            // is still seed + i); the caller slices the arrays to them.
            d["played"] = std::find(finished.begin(), finished.end(), 0) - finished.begin();
            d["interrupted"] = true;
        }
        return d;
    }, py::arg("start"), py::arg("games"), py::arg("seed") = 0, py::arg("policy") = "random",
       py::arg("threads") = 0, py::arg("observations") = false, py::arg("level") = 1,
       py::arg("sides") = std::vector<int>{0, 1, 2, 3},
       "Plays `games` games from `start` on `threads` threads (game i uses seed + i), GIL released, "
       "Ctrl-C stops. Returns a dict of numpy arrays: moves, colours, lengths, scores[, planes, pieces].");

    m.def("observation_planes", [](const Position& pos, int colour) {
        check_colour(colour);
        const py::ssize_t cells = pos.table().geo().num_cells();
        py::array_t<std::int8_t> planes({py::ssize_t(kPlaneChannels), cells});
        py::array_t<std::int8_t> pieces({py::ssize_t(kNumColours), py::ssize_t(kNumPieces)});
        write_planes(pos, colour, planes.mutable_data(), pieces.mutable_data());
        return py::make_tuple(planes, pieces);
    }, py::arg("position"), py::arg("colour"), "Observation planes (6, cells) and pieces left (4, 22) of a colour.");

    py::class_<EnvState>(m, "EnvState", "Incremental game state for the learning environment.")
        .def(py::init<const Position&>(), py::arg("start"))
        .def("reset", [](EnvState& e) { e.reset(); })
        .def("reset_to", [](EnvState& e, const Position& p) { e.reset(p); })
        .def_property_readonly("position", [](const EnvState& e) { return Position(e.position()); })
        .def_property_readonly("to_move", [](const EnvState& e) { return e.position().is_over() ? -1 : e.position().to_move(); })
        .def_property_readonly("is_over", [](const EnvState& e) { return e.position().is_over(); })
        .def("play", [](EnvState& e, int id) {
            Illegal why = e.play(id);
            if (why != Illegal::None) throw py::value_error(illegal_reason(why));
            return e.position().is_over() ? -1 : e.position().to_move();
        }, "Plays a legal move of the colour to move; returns the next colour, or -1 at the end.")
        .def("observe", [](EnvState& e, int colour) {
            check_colour(colour);
            const Position& pos = e.position();
            const py::ssize_t cells = pos.table().geo().num_cells();
            py::array_t<std::int8_t> planes({py::ssize_t(kPlaneChannels), cells});
            py::array_t<std::int8_t> pieces({py::ssize_t(kNumColours), py::ssize_t(kNumPieces)});
            py::array_t<std::int8_t> mask(pos.table().num_placements());
            write_planes(pos, colour, planes.mutable_data(), pieces.mutable_data());
            const int n = e.write_mask(colour, mask.mutable_data());
            py::array_t<std::uint16_t> ids(n);
            std::copy(e.buffer(), e.buffer() + n, ids.mutable_data());
            return py::make_tuple(planes, pieces, mask, ids);
        }, "(planes, pieces, action mask, legal ids) of a colour, fresh arrays.")
        .def("legal_ids", [](EnvState& e, int colour) {
            check_colour(colour);
            int n = e.legal_moves(colour);
            py::array_t<std::uint16_t> a(n);
            std::copy(e.buffer(), e.buffer() + n, a.mutable_data());
            return a;
        })
        .def("scores", [](const EnvState& e) {
            std::vector<int> s(kNumColours, 0);
            for (int c = 0; c < kNumColours; ++c)
                if (e.position().in_play(c)) s[c] = e.position().score(c);
            return s;
        });
}
