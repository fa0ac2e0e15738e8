// Bindings of the rules core: boards, tables, positions, random playouts. Types only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/checks.h"
#include "bindings/interrupt.h"
#include "core/playout.h"
#include "core/position.h"

namespace py = pybind11;
using namespace trigon;
using namespace trigon::bindings;

namespace {

const MoveTable& table_of(int side) {
    check_side(side);
    return MoveTable::get(side);
}

Rules make_rules(int side, int colours, bool alternate, int start_rule) {
    check_side(side);
    if (colours <= 0 || colours > 0xF) throw py::value_error("colours must be a non-empty subset of 0..3");
    if (start_rule < 0 || start_rule > 2) throw py::value_error("start_rule must be 0, 1 or 2");
    Rules r;
    r.side = side;
    r.colours = static_cast<std::uint8_t>(colours);
    r.alternate = alternate;
    r.start_rule = static_cast<StartRule>(start_rule);
    return r;
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v) {
    py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
}

py::array_t<bool> mask_array(const Bitboard& b, int n) {
    py::array_t<bool> a(n);
    auto* d = a.mutable_data();
    for (int i = 0; i < n; ++i) d[i] = b.test(i);
    return a;
}

// Runs `work(chunk)` in chunks with the GIL released, checking for Ctrl-C between chunks:
// it raises KeyboardInterrupt, or with `interrupted` given, stops there and sets it. Returns
// the items done.
template <class F>
long interruptible(long total, long chunk, F&& work, bool* interrupted = nullptr) {
    const LongCall long_call;
    long done = 0;
    while (done < total) {
        long n = std::min(chunk, total - done);
        {
            py::gil_scoped_release release;
            work(done, n);
        }
        done += n;
        if (interrupted) {
            if (consume_ctrl_c(*interrupted)) break;
        } else if (PyErr_CheckSignals() != 0) {
            throw py::error_already_set();
        } else if (exiting().load()) {
            throw std::runtime_error("the interpreter is exiting: the call was cut short");
        }
    }
    return done;
}

}  // namespace

void bind_core(py::module_& m) {
    m.attr("NUM_COLOURS") = kNumColours;
    m.attr("NUM_PIECES") = kNumPieces;
    m.attr("PASS") = kPass;

    py::class_<MoveTable>(m, "Board", "Geometry and placement table of one board (immutable, shared).")
        .def_property_readonly("side", [](const MoveTable& t) { return t.geo().side(); })
        .def_property_readonly("width", [](const MoveTable& t) { return t.geo().width(); })
        .def_property_readonly("height", [](const MoveTable& t) { return t.geo().height(); })
        .def_property_readonly("num_cells", [](const MoveTable& t) { return t.geo().num_cells(); })
        .def_property_readonly("num_vertices", [](const MoveTable& t) { return t.geo().num_vertices(); })
        .def_property_readonly("num_placements", &MoveTable::num_placements)
        .def("cell_name", [](const MoveTable& t, int c) { check_cell(t.geo(), c); return t.geo().cell_name(c); })
        .def("parse_cell", [](const MoveTable& t, const std::string& s) { return t.geo().parse_cell(s); })
        .def("cell_xy", [](const MoveTable& t, int c) {
            check_cell(t.geo(), c);
            return py::make_tuple(t.geo().x(c), t.geo().y(c));
        })
        .def("cell_at", [](const MoveTable& t, int x, int y) { return t.geo().cell_at(x, y); })
        .def("is_up", [](const MoveTable& t, int c) { check_cell(t.geo(), c); return t.geo().is_up(c); })
        .def("lattice", [](const MoveTable& t, int c) {
            check_cell(t.geo(), c);
            auto L = t.geo().lattice(c);
            return py::make_tuple(L.a, L.b, L.t);
        })
        .def("edge_neighbours", [](const MoveTable& t, int c) { check_cell(t.geo(), c); return t.geo().edge_neighbours(c); })
        .def("vertex_neighbours", [](const MoveTable& t, int c) { check_cell(t.geo(), c); return t.geo().vertex_neighbours(c); })
        .def("cell_vertices", [](const MoveTable& t, int c) { check_cell(t.geo(), c); return t.geo().cell_vertices(c); })
        .def("vertex_fan", [](const MoveTable& t, int v) {
            if (v < 0 || v >= t.geo().num_vertices()) throw out_of_range("vertex index", v, t.geo().num_vertices());
            return t.geo().vertex_fan(v);
        })
        .def_property_readonly("start_cells", [](const MoveTable& t) {
            auto s = t.geo().start_cells();
            return std::vector<int>(s.begin(), s.end());
        })
        .def("symmetric_cell", [](const MoveTable& t, int k, int c) {
            check_symmetry(k);
            check_cell(t.geo(), c);
            return t.geo().symmetric_cell(k, c);
        })
        .def("placement_cells", [](const MoveTable& t, int id) {
            check_placement(t, id);
            const auto& p = t.placement(id);
            return std::vector<int>(p.cells.begin(), p.cells.begin() + p.size);
        })
        .def("placement_piece", [](const MoveTable& t, int id) { check_placement(t, id); return int(t.placement(id).piece); })
        .def("placement_orientation", [](const MoveTable& t, int id) {
            check_placement(t, id);
            return int(t.placement(id).orientation);
        })
        .def("find_placement", [](const MoveTable& t, const std::vector<int>& cells) {
            if (cells.empty() || cells.size() > kMaxPieceSize) return -1;
            return t.find(cells.data(), static_cast<int>(cells.size()));
        })
        .def("symmetric_placement", [](const MoveTable& t, int k, int id) {
            check_symmetry(k);
            check_placement(t, id);
            return t.symmetric(k, id);
        })
        .def("cell_symmetry_array", [](const MoveTable& t, int k) {
            check_symmetry(k);
            py::array_t<std::int16_t> a(t.geo().num_cells());
            for (int c = 0; c < t.geo().num_cells(); ++c) a.mutable_data()[c] = static_cast<std::int16_t>(t.geo().symmetric_cell(k, c));
            return a;
        }, "Image of every cell under symmetry k.")
        .def("placement_symmetry_array", [](const MoveTable& t, int k) {
            check_symmetry(k);
            py::array_t<std::int32_t> a(t.num_placements());
            for (int id = 0; id < t.num_placements(); ++id) a.mutable_data()[id] = t.symmetric(k, id);
            return a;
        }, "Image of every placement under symmetry k.")
        .def("placement_cells_array", [](const MoveTable& t) {
            py::array_t<std::int16_t> a({t.num_placements(), kMaxPieceSize});
            auto r = a.mutable_unchecked<2>();
            for (int id = 0; id < t.num_placements(); ++id)
                for (int i = 0; i < kMaxPieceSize; ++i)
                    r(id, i) = i < t.placement(id).size ? static_cast<std::int16_t>(t.placement(id).cells[i]) : -1;
            return a;
        })
        .def("placement_piece_array", [](const MoveTable& t) {
            py::array_t<std::int8_t> a(t.num_placements());
            for (int id = 0; id < t.num_placements(); ++id) a.mutable_data()[id] = static_cast<std::int8_t>(t.placement(id).piece);
            return a;
        })
        .def("piece_placements", [](const MoveTable& t, int p) {
            check_piece(p);
            return t.piece_placements(p);
        })
        .def_property_readonly("memory_bytes", &MoveTable::memory_bytes);

    m.def("board", &table_of, py::return_value_policy::reference, py::arg("side"),
          "The shared board table for side 9 (486 cells) or 8 (384 cells).");
    m.def("build_table_seconds", [](int side) {
        check_side(side);
        const LongCall long_call;
        py::gil_scoped_release release;
        auto t0 = std::chrono::steady_clock::now();
        auto t = std::make_unique<MoveTable>(side);
        auto t1 = std::chrono::steady_clock::now();
        return std::chrono::duration<double>(t1 - t0).count();
    }, "Builds a fresh table (not the shared one) and returns the seconds it took.");

    m.def("piece_names", [] {
        std::vector<std::string> v;
        for (auto& p : trigon_pieces()) v.push_back(p.name);
        return v;
    });
    m.def("piece_sizes", [] {
        std::vector<int> v;
        for (auto& p : trigon_pieces()) v.push_back(p.size);
        return v;
    });
    m.def("piece_orientations", [](int p) {
        check_piece(p);
        std::vector<std::vector<std::tuple<int, int, int>>> out;
        for (auto& form : trigon_pieces()[p].orientations) {
            out.emplace_back();
            for (auto& c : form) out.back().emplace_back(c.a, c.b, c.t);
        }
        return out;
    });
    constexpr int kMaxLattice = 1 << 20;
    m.def("canonical_key", [](const std::vector<std::tuple<int, int, int>>& cells) {
        if (cells.empty()) throw py::value_error("empty shape");
        std::vector<LatticeCell> v;
        for (auto& [a, b, t] : cells) {
            if (t != 0 && t != 1) throw py::value_error("t must be 0 or 1");
            // (the transforms add and negate coordinates: far ones would overflow an int)
            if (a < -kMaxLattice || a > kMaxLattice || b < -kMaxLattice || b > kMaxLattice)  // (no abs: abs(INT_MIN))
                throw py::value_error("lattice coordinates must be within -1048576..1048576");
            v.push_back({a, b, t});
        }
        return canonical_key(v);
    });
    m.def("illegal_reason", [](int code) {
        if (code < 0 || code > static_cast<int>(Illegal::BadPlacement)) throw py::value_error("bad code");
        return std::string(illegal_reason(static_cast<Illegal>(code)));
    });

    py::class_<Position>(m, "Position", "Mutable game state (copy-make: copy() is cheap).")
        .def(py::init([](int side, int colours, bool alternate, int start_rule) {
                 return Position(make_rules(side, colours, alternate, start_rule));
             }),
             py::arg("side") = 9, py::arg("colours") = 0xF, py::arg("alternate") = false, py::arg("start_rule") = 0)
        .def("copy", [](const Position& p) { return Position(p); })
        .def("__copy__", [](const Position& p) { return Position(p); })
        .def("__deepcopy__", [](const Position& p, py::dict) { return Position(p); })
        .def("__eq__", [](const Position& a, const Position& b) { return a == b; }, py::is_operator())
        .def_property_readonly("board", [](const Position& p) -> const MoveTable& { return p.table(); },
                               py::return_value_policy::reference)
        .def_property_readonly("side", [](const Position& p) { return p.rules().side; })
        .def_property_readonly("colours", [](const Position& p) { return int(p.rules().colours); })
        .def_property_readonly("alternate", [](const Position& p) { return p.rules().alternate; })
        .def_property_readonly("start_rule", [](const Position& p) { return int(p.rules().start_rule); })
        .def_property_readonly("to_move", &Position::to_move)
        .def_property_readonly("is_over", &Position::is_over)
        .def_property_readonly("num_moves", &Position::num_moves)
        .def("in_play", [](const Position& p, int c) { check_colour(c); return p.in_play(c); })
        .def("is_out", [](const Position& p, int c) { check_colour(c); return p.cannot_move(c); })
        .def("started", [](const Position& p, int c) { check_colour(c); return p.started(c); })
        .def("pieces_left", [](const Position& p, int c) { check_colour(c); return p.pieces_left(c); })
        .def("last_piece", [](const Position& p, int c) { check_colour(c); return p.last_piece(c); })
        .def("placed_triangles", [](const Position& p, int c) { check_colour(c); return p.placed_triangles(c); })
        .def("score", [](const Position& p, int c) { check_colour(c); return p.score(c); })
        .def("check", [](const Position& p, int c, int id) {
            check_colour(c);
            return static_cast<int>(p.check(c, id));
        }, "0 when legal, else an Illegal code (see illegal_reason).")
        .def("place", [](Position& p, int c, int id) {
            check_colour(c);
            check_placement(p.table(), id);
            if (p.occupied_all().intersects(p.table().cells_mask(id)))
                throw py::value_error("setup placement overlaps a covered cell");
            if (!(p.pieces_left(c) >> p.table().placement(id).piece & 1))
                throw py::value_error("setup placement uses a piece already placed");
            p.place(c, id);
            // The colour to move must have a move unless the game is over (every consumer of a
            // position assumes it); a setup can take its last one away.
            p.set_to_move(p.to_move());
        }, "Places without the contact rules (setups); overlap and reused pieces are refused. "
           "The colour to move then passes on if it has no move left.")
        .def("play", [](Position& p, int id) {
            if (p.is_over()) throw py::value_error("the game is over");
            auto why = p.check(p.to_move(), id);
            if (why != Illegal::None) throw py::value_error(illegal_reason(why));
            p.play(id);
        })
        .def("play_sequence", [](Position& p, const std::vector<std::pair<int, int>>& moves) {
            // (a game replayed in bulk: one call instead of a check and a play per move)
            int played = 0;
            for (auto [c, id] : moves) {
                if (p.is_over() || c != p.to_move()) return std::make_pair(played, -1);
                const Illegal why = p.check(c, id);
                if (why != Illegal::None) return std::make_pair(played, static_cast<int>(why));
                p.play(id);
                ++played;
            }
            return std::make_pair(played, 0);
        }, py::arg("moves"),
           "Plays (colour, placement id) pairs in order while each is the colour to move's legal move: "
           "(moves played, 0), or (moves played, why) at the first that is not: -1 when it is not that "
           "colour's turn (or the game is over), else its Illegal code (see illegal_reason).")
        .def("set_to_move", [](Position& p, int c) { check_colour(c); p.set_to_move(c); })
        .def("generate", [](const Position& p, int c) {
            check_colour(c);
            auto ml = std::make_unique<MoveList>();
            p.generate(c, *ml);
            py::array_t<std::uint16_t> a(ml->size);
            std::copy(ml->begin(), ml->end(), a.mutable_data());
            return a;
        })
        .def("has_move", [](const Position& p, int c) { check_colour(c); return p.has_move(c); })
        .def("legal_mask", [](const Position& p, int c) {
            check_colour(c);
            auto ml = std::make_unique<MoveList>();
            p.generate(c, *ml);
            py::array_t<bool> a(p.table().num_placements());
            std::fill(a.mutable_data(), a.mutable_data() + a.size(), false);
            for (auto id : *ml) a.mutable_data()[id] = true;
            return a;
        })
        .def("occupancy", [](const Position& p) {
            int n = p.table().geo().num_cells();
            py::array_t<std::int8_t> a(n);
            auto* d = a.mutable_data();
            for (int i = 0; i < n; ++i) d[i] = -1;
            for (int c = 0; c < kNumColours; ++c) p.occupied(c).for_each([&](int i) { d[i] = static_cast<std::int8_t>(c); });
            return a;
        }, "Colour index per cell, -1 where empty.")
        .def("forbidden_mask", [](const Position& p, int c) {
            check_colour(c);
            return mask_array(p.forbidden(c), p.table().geo().num_cells());
        })
        .def("attach_mask", [](const Position& p, int c) {
            check_colour(c);
            return mask_array(p.attach_points(c), p.table().geo().num_cells());
        })
        .def("start_cells", [](const Position& p, int c) {
            check_colour(c);
            std::vector<int> v;
            p.start_cells(c).for_each([&](int i) { v.push_back(i); });
            return v;
        });

    m.def("random_game", [](const Position& start, std::uint64_t seed) {
        RandomPlayout po(start);
        Rng rng(seed);
        std::vector<std::pair<int, int>> moves;
        while (!po.position().is_over()) {
            int c = po.position().to_move();
            int id = po.step(rng);
            if (id == kPass) break;  // (not reached: the colour to move has a move unless it is over)
            moves.emplace_back(c, id);
        }
        return py::make_tuple(moves, po.position());
    }, py::arg("start"), py::arg("seed"), "A uniformly random game from a position: ([(colour, id)...], final).");

    m.def("random_games_stats", [](const Position& start_ref, long games, std::uint64_t seed) {
        if (games < 0) throw py::value_error("games must be >= 0");
        const Position start = start_ref;  // a copy: other Python threads may change theirs while we run
        long total_moves = 0;
        std::vector<long> score_sum(kNumColours, 0);
        auto t0 = std::chrono::steady_clock::now();
        bool interrupted = false;
        const long played = interruptible(games, 256, [&](long first, long n) {
            RandomPlayout po(start);
            for (long g = first; g < first + n; ++g) {
                Rng rng(seed + static_cast<std::uint64_t>(g));
                po.reset(start);
                total_moves += po.run(rng);
                for (int c = 0; c < kNumColours; ++c)
                    if (start.in_play(c)) score_sum[c] += po.position().score(c);  // absent colours: 0
            }
        }, &interrupted);
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        py::dict d;
        d["games"] = played;  // fewer than asked when Ctrl-C stopped it
        d["interrupted"] = interrupted;
        d["moves"] = total_moves;
        d["seconds"] = secs;
        d["score_sum"] = score_sum;
        return d;
    }, py::arg("start"), py::arg("games"), py::arg("seed") = 0,
       "Plays uniformly random games from a position in C++ (GIL released; Ctrl-C stops it and the "
       "totals are of the games played, `interrupted` set).");

    m.def("movegen_seconds", [](const std::vector<Position>& positions, int repeats) {
        if (repeats < 1) throw py::value_error("repeats must be >= 1");
        std::vector<double> per_position;
        long moves = 0;
        auto ml = std::make_unique<MoveList>();
        for (const Position& p : positions) {
            const int c = p.to_move();
            const auto t0 = std::chrono::steady_clock::now();
            // (Ctrl-C stops it between chunks of repeats: one position may be repeated for hours)
            interruptible(repeats, 256, [&](long, long n) {
                for (long r = 0; r < n; ++r) moves += p.generate(c, *ml);
            });
            per_position.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / repeats);
        }
        return py::make_tuple(per_position, moves / repeats);
    }, "Time of full legal-move generation for the colour to move, seconds per position.");
}
