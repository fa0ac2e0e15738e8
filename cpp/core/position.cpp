#include "position.h"

#include <stdexcept>

namespace trigon {

const char* illegal_reason(Illegal why) {
    switch (why) {
        case Illegal::None: return "legal";
        case Illegal::GameOver: return "the game is over";
        case Illegal::NotInPlay: return "this colour takes no part in the game";
        case Illegal::PieceUsed: return "this piece has already been placed by this colour";
        case Illegal::Overlap: return "a cell is already covered";
        case Illegal::EdgeContact: return "the piece would share an edge with a piece of its own colour";
        case Illegal::NoContact: return "the piece must touch a piece of its own colour at a corner";
        case Illegal::NotOnStart: return "a colour's first piece must cover one of its start cells";
        case Illegal::ReservedStart: return "the piece covers a start cell reserved for another colour";
        case Illegal::AlternateRule:
            return "alternate rule: pieces of the same colour may meet only corner to corner";
        case Illegal::BadPlacement: return "not a placement on this board";
    }
    return "unknown";
}

Position::Position(const Rules& rules) : table_(&MoveTable::get(rules.side)), rules_(rules) {
    if ((rules.colours & 0xF) == 0 || (rules.colours & ~0xFu)) throw std::invalid_argument("no colours in play");
    for (int c = 0; c < kNumColours; ++c) {
        pieces_left_[c] = kAllPieces;
        last_piece_[c] = -1;
        placed_[c] = 0;
        start_allowed_[c] = table_->geo().start_mask();
        if (!in_play(c)) out_ |= static_cast<std::uint8_t>(1u << c);
    }
    advance_from(0);
}

int Position::score(int c) const {
    if (pieces_left_[c] == 0) return last_piece_[c] == kNumPieces - 1 ? 20 : 15;
    return placed_[c] - kTrianglesPerColour;
}

bool Position::cells_free(int c, const Placement& pl) const {
    for (int i = 0; i < pl.size; ++i)
        if (forbidden_[c].test(pl.cells[i])) return false;
    return true;
}

Illegal Position::check(int c, int id) const {
    if (id < 0 || id >= table_->num_placements()) return Illegal::BadPlacement;
    if (c < 0 || c >= kNumColours || !in_play(c)) return Illegal::NotInPlay;
    if (is_over()) return Illegal::GameOver;
    const Placement& pl = table_->placement(id);
    if (!(pieces_left_[c] >> pl.piece & 1)) return Illegal::PieceUsed;
    const Bitboard& cm = table_->cells_mask(id);
    if (cm.intersects(occ_all_)) return Illegal::Overlap;
    if (!started(c)) {
        if (cm.intersects(reserved_for_others(c))) return Illegal::ReservedStart;
        if (!cm.intersects(start_allowed_[c])) return Illegal::NotOnStart;
        if (cm.intersects(forbidden_[c])) return Illegal::ReservedStart;  // only reservations are free
        return Illegal::None;
    }
    if (cm.intersects(forbidden_[c] - occ_all_)) {
        // Forbidden but free: own edge contact, a reserved start cell, or the alternate rule.
        Bitboard own_adj;
        occ_[c].for_each([&](int cell) {
            for (int nb : table_->geo().edge_neighbours(cell)) own_adj.set(nb);
        });
        if (cm.intersects(own_adj)) return Illegal::EdgeContact;
        if (cm.intersects(reserved_for_others(c))) return Illegal::ReservedStart;
        return Illegal::AlternateRule;
    }
    if (!cm.intersects(attach_[c])) return Illegal::NoContact;
    if (rules_.alternate && table_->side_vertices(id).intersects(touched_[c])) return Illegal::AlternateRule;
    return Illegal::None;
}

bool Position::still_legal(int c, int id) const {
    const Placement& pl = table_->placement(id);
    if (!(pieces_left_[c] >> pl.piece & 1) || !cells_free(c, pl)) return false;
    return !rules_.alternate || !table_->side_vertices(id).intersects(touched_[c]);
}

void Position::place(int c, int id) {
    const Bitboard& cm = table_->cells_mask(id);
    const Placement& pl = table_->placement(id);
    const bool first = !started(c);
    occ_[c] |= cm;
    occ_all_ |= cm;
    for (int k = 0; k < kNumColours; ++k) forbidden_[k] |= cm;
    forbidden_[c] |= table_->adj_mask(id);
    attach_[c] |= table_->attach_mask(id);
    if (rules_.alternate) {
        forbidden_[c] |= table_->alt_forbid_mask(id);
        touched_[c] |= table_->touch_vertices(id);
    }
    pieces_left_[c] &= ~(1u << pl.piece);
    last_piece_[c] = static_cast<std::int8_t>(pl.piece);
    placed_[c] = static_cast<std::int16_t>(placed_[c] + pl.size);
    ++num_moves_;
    if (first) on_first_move(c, id);
}

void Position::on_first_move(int c, int id) {
    const Geometry& geo = table_->geo();
    const auto& ring = geo.start_cells();
    int s = -1;
    for (int i = 0; i < kNumStartCells; ++i)
        if (table_->cells_mask(id).test(ring[i])) s = i;
    if (s < 0) return;  // a setup placement off the start cells constrains nobody
    auto unstarted = [&](int k) { return k != c && in_play(k) && !started(k); };
    if (rules_.start_rule == StartRule::Opposite) {
        int partner = (c + 2) % kNumColours;
        int opp = ring[(s + 3) % kNumStartCells];
        for (int k = 0; k < kNumColours; ++k) {
            if (!unstarted(k)) continue;
            if (k == partner) {
                start_allowed_[k] = Bitboard{};
                start_allowed_[k].set(opp);
            } else {
                start_allowed_[k].reset(opp);
            }
        }
    } else if (rules_.start_rule == StartRule::EveryOther) {
        bool first_of_all = true;
        for (int k = 0; k < kNumColours; ++k)
            if (k != c && started(k)) first_of_all = false;
        if (first_of_all) {
            Bitboard ring_cells;
            ring_cells.set(ring[(s + 2) % kNumStartCells]);
            ring_cells.set(ring[(s + 4) % kNumStartCells]);
            for (int k = 0; k < kNumColours; ++k)
                if (unstarted(k)) start_allowed_[k] &= ring_cells;
        }
    } else {
        return;
    }
    // A start cell that is the only one left to an unstarted colour is reserved for it.
    for (int k = 0; k < kNumColours; ++k) {
        if (!unstarted(k)) continue;
        Bitboard left = start_allowed_[k] - occ_all_;
        if (left.count() != 1) continue;
        for (int j = 0; j < kNumColours; ++j)
            if (j != k) forbidden_[j] |= left;
    }
}

Bitboard Position::reserved_for_others(int c) const {
    Bitboard r;
    for (int k = 0; k < kNumColours; ++k) {
        if (k == c || !in_play(k) || started(k)) continue;
        Bitboard left = start_allowed_[k] - occ_all_;
        if (left.count() == 1) r |= left;
    }
    return r & forbidden_[c];
}

void Position::play(int id) {
    if (id != kPass) place(to_move_, id);
    advance_from(to_move_ + 1);
}

void Position::set_to_move(int from) {
    // Setups may have changed who can move: recompute the out flags from scratch.
    out_ = 0;
    for (int c = 0; c < kNumColours; ++c)
        if (!in_play(c) || !has_move(c)) out_ |= static_cast<std::uint8_t>(1u << c);
    advance_from(from);
}

void Position::advance_from(int from) {
    for (int i = 0; i < kNumColours; ++i) {
        int c = (from + i) % kNumColours;
        if (is_out(c)) continue;
        if (has_move(c)) {
            to_move_ = static_cast<std::int8_t>(c);
            return;
        }
        out_ |= static_cast<std::uint8_t>(1u << c);  // a colour that cannot move never can again
    }
    to_move_ = static_cast<std::int8_t>(from % kNumColours);
}

int Position::local_status(int c, int cell) const {
    const auto& nbs = table_->geo().edge_neighbours(cell);
    int st = 0;
    for (std::size_t i = 0; i < nbs.size(); ++i) st |= static_cast<int>(forbidden_[c].test(nbs[i])) << i;
    return st;
}

template <bool kStopAtFirst>
int Position::generate_impl(int c, std::uint16_t* out) const {
    if (!in_play(c) || pieces_left_[c] == 0) return 0;
    int n = 0;
    const std::uint32_t left = pieces_left_[c];
    const bool alt = rules_.alternate;
    if (!started(c)) {
        Bitboard starts = start_allowed_[c] - forbidden_[c];
        bool done = false;
        starts.for_each([&](int s) {
            if (done) return;
            int st = local_status(c, s);
            for (std::uint32_t l = left; l; l &= l - 1) {
                int piece = std::countr_zero(l);
                for (auto id : table_->at(s, st, piece)) {
                    if (!cells_free(c, table_->placement(id))) continue;
                    out[n++] = id;
                    if (kStopAtFirst) { done = true; return; }
                }
            }
        });
        return n;
    }
    const Bitboard points = attach_[c] - forbidden_[c];
    bool done = false;
    points.for_each([&](int p) {
        if (done) return;
        int st = local_status(c, p);
        for (std::uint32_t l = left; l; l &= l - 1) {
            int piece = std::countr_zero(l);
            for (auto id : table_->at(p, st, piece)) {
                const Placement& pl = table_->placement(id);
                if (!cells_free(c, pl)) continue;
                // Emit each placement once: at the lowest attach point it covers.
                bool dup = false;
                for (int i = 0; i < pl.size && pl.cells[i] < p; ++i)
                    if (points.test(pl.cells[i])) { dup = true; break; }
                if (dup) continue;
                if (alt && table_->side_vertices(id).intersects(touched_[c])) continue;
                out[n++] = id;
                if (kStopAtFirst) { done = true; return; }
            }
        }
    });
    return n;
}

int Position::generate_at(int c, const Bitboard& points, std::uint16_t* out) const {
    if (!in_play(c) || pieces_left_[c] == 0 || !started(c)) return 0;
    const Bitboard older = (attach_[c] - forbidden_[c]) - points;
    const std::uint32_t left = pieces_left_[c];
    int n = 0;
    points.for_each([&](int p) {
        const int st = local_status(c, p);
        for (std::uint32_t l = left; l; l &= l - 1) {
            for (auto id : table_->at(p, st, std::countr_zero(l))) {
                const Placement& pl = table_->placement(id);
                if (!cells_free(c, pl) || table_->cells_mask(id).intersects(older)) continue;
                bool dup = false;  // emitted at the lowest of `points` it covers
                for (int i = 0; i < pl.size && pl.cells[i] < p; ++i)
                    if (points.test(pl.cells[i])) { dup = true; break; }
                if (dup || (rules_.alternate && table_->side_vertices(id).intersects(touched_[c]))) continue;
                out[n++] = id;
            }
        }
    });
    return n;
}

int Position::generate(int c, MoveList& out) const {
    out.size = generate_impl<false>(c, out.moves.data());
    return out.size;
}

bool Position::has_move(int c) const {
    std::uint16_t buf[1];
    return generate_impl<true>(c, buf) > 0;
}

bool operator==(const Position& a, const Position& b) {
    return a.table_ == b.table_ && a.rules_.colours == b.rules_.colours && a.rules_.alternate == b.rules_.alternate &&
           a.rules_.start_rule == b.rules_.start_rule && a.occ_ == b.occ_ && a.forbidden_ == b.forbidden_ &&
           a.attach_ == b.attach_ && a.start_allowed_ == b.start_allowed_ && a.touched_ == b.touched_ &&
           a.occ_all_ == b.occ_all_ && a.pieces_left_ == b.pieces_left_ && a.last_piece_ == b.last_piece_ &&
           a.placed_ == b.placed_ && a.to_move_ == b.to_move_ && a.num_moves_ == b.num_moves_ && a.same_out(b);
}

bool Position::same_out(const Position& b) const {
    // Play marks a colour out when the turn passes it, set_to_move at once: a flag set on one
    // side only is the same fact where that colour has no move (the boards are equal here).
    const unsigned differ = static_cast<unsigned>(out_ ^ b.out_);
    for (int c = 0; c < kNumColours; ++c)
        if ((differ >> c & 1) && has_move(c)) return false;
    return true;
}

}  // namespace trigon
