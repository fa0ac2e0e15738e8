// Position state of a Trigon game: occupancy, per-colour forbidden and attach cells, pieces
// left, turn; legality checks, play, and legal-move generation into a caller's buffer.
#pragma once

#include <array>
#include <cstdint>

#include "bitboard.h"
#include "tables.h"

namespace trigon {

constexpr int kNumColours = 4;  // blue, yellow, red, green: always in this turn order
constexpr std::uint16_t kPass = 0xFFFF;
constexpr std::uint32_t kAllPieces = (1u << kNumPieces) - 1;

// How first moves are constrained.
enum class StartRule : std::uint8_t {
    Any,         // any free start cell (four players, teams, solo; Pentobi's 2- and 3-player games)
    Opposite,    // rulebook two-player: a player's second colour starts opposite its first
    EveryOther,  // rulebook three-player: the colours take every other cell of the ring of six
};

struct Rules {
    int side = 9;                     // 9: the full board; 8: the inner board (three players)
    std::uint8_t colours = 0xF;       // bit c set when colour c takes part
    bool alternate = false;           // same colour may meet only corner to corner
    StartRule start_rule = StartRule::Any;
};

// Why a placement is not legal for a colour; None when it is.
enum class Illegal : std::uint8_t {
    None,
    GameOver,       // no colour can move
    NotInPlay,      // the colour takes no part in this game
    PieceUsed,      // the colour has already placed this piece
    Overlap,        // a cell is already covered
    EdgeContact,    // shares an edge with a piece of the same colour
    NoContact,      // does not touch its colour at a vertex (after the first move)
    NotOnStart,     // a first move must cover one of the colour's start cells
    ReservedStart,  // covers a start cell reserved for another colour's first move
    AlternateRule,  // alternate rule: a side of one piece meets another of the same colour
    BadPlacement,   // not a placement id of this board
};

const char* illegal_reason(Illegal why);

// Fixed-capacity move list, filled by generate(); no allocation.
struct MoveList {
    int size = 0;
    std::array<std::uint16_t, kMaxPlacements> moves;
    const std::uint16_t* begin() const { return moves.data(); }
    const std::uint16_t* end() const { return moves.data() + size; }
};

class Position {
public:
    explicit Position(const Rules& rules);

    const Rules& rules() const { return rules_; }
    const MoveTable& table() const { return *table_; }

    bool in_play(int c) const { return rules_.colours >> c & 1; }
    bool started(int c) const { return pieces_left_[c] != kAllPieces; }
    // Marked out: set when the turn passes a colour with no move (set_to_move marks every such
    // colour at once), so a colour not yet passed may have no move and not be marked.
    bool is_out(int c) const { return out_ >> c & 1; }
    // Out or not, whether it can still move (what a caller asks; the search reads the flag).
    bool cannot_move(int c) const { return is_out(c) || !has_move(c); }
    bool is_over() const { return (out_ & rules_.colours) == rules_.colours; }
    int to_move() const { return to_move_; }
    int num_moves() const { return num_moves_; }

    std::uint32_t pieces_left(int c) const { return pieces_left_[c]; }
    int last_piece(int c) const { return last_piece_[c]; }
    int placed_triangles(int c) const { return placed_[c]; }
    const Bitboard& occupied(int c) const { return occ_[c]; }
    const Bitboard& occupied_all() const { return occ_all_; }
    const Bitboard& forbidden(int c) const { return forbidden_[c]; }
    // Cells where colour c may attach its next piece (vertex contact, not forbidden).
    Bitboard attach_points(int c) const { return attach_[c] - forbidden_[c]; }
    // Raw attach cells of colour c (including ones now forbidden), and, under the alternate rule,
    // the vertices its pieces touch.
    const Bitboard& attach_cells(int c) const { return attach_[c]; }
    const VertexSet& touched_vertices(int c) const { return touched_[c]; }
    // Start cells colour c may still use for its first move.
    Bitboard start_cells(int c) const { return start_allowed_[c] - forbidden_[c]; }
    // Where colour c's next piece goes from: its attach points once it has started, else its start cells.
    Bitboard seed_cells(int c) const { return started(c) ? attach_points(c) : start_cells(c); }

    // Score by the rulebook: minus unplaced triangles, +15 all placed, +20 if the last was "1".
    int score(int c) const;

    // Exact rule check of placement `id` for colour c (any colour, not only the one to move).
    Illegal check(int c, int id) const;
    bool is_legal(int c, int id) const { return check(c, id) == Illegal::None; }

    // Places `id` for colour c without checking (the caller checked, or it is a setup).
    void place(int c, int id);
    // Plays a legal move (or kPass when the colour has none) for the colour to move, then
    // passes the turn to the next colour that can move; colours that cannot move are out.
    void play(int id);
    // For drivers that track legal moves themselves (playouts, search): hand the turn to
    // colour c, or mark a colour that has no move as out.
    void force_turn(int c) { to_move_ = static_cast<std::int8_t>(c); }
    void mark_out(int c) { out_ |= static_cast<std::uint8_t>(1u << c); }
    // Recomputes whose turn it is, starting at colour `from` (for setups and records).
    void set_to_move(int from);

    // All legal moves of colour c, each once, into `out`. Returns the count.
    int generate(int c, MoveList& out) const;
    // The legal moves of started colour c that cover one of `points` (new attach points, a
    // subset of attach_points(c)) and none of its other attach points, each once: with the
    // earlier moves that are still_legal, all its legal moves (for incremental lists).
    int generate_at(int c, const Bitboard& points, std::uint16_t* out) const;
    // True when colour c has at least one legal move (stops at the first).
    bool has_move(int c) const;
    // Legality of a move known to have been legal for c earlier (used by incremental lists):
    // the piece is still left, no cell is now forbidden, the alternate rule still holds.
    bool still_legal(int c, int id) const;

    // Zobrist-free identity for tests: equal state, equal positions.
    friend bool operator==(const Position& a, const Position& b);

private:
    template <bool kStopAtFirst>
    int generate_impl(int c, std::uint16_t* out) const;
    bool cells_free(int c, const Placement& pl) const;
    bool same_out(const Position& b) const;  // out flags equal, up to colours with no move
    int local_status(int c, int cell) const;
    void on_first_move(int c, int id);
    void advance_from(int from);
    Bitboard reserved_for_others(int c) const;

    const MoveTable* table_;
    Rules rules_;
    std::array<Bitboard, kNumColours> occ_, forbidden_, attach_, start_allowed_;
    std::array<VertexSet, kNumColours> touched_;
    Bitboard occ_all_;
    std::array<std::uint32_t, kNumColours> pieces_left_;
    std::array<std::int8_t, kNumColours> last_piece_;
    std::array<std::int16_t, kNumColours> placed_;
    std::uint8_t out_ = 0;
    std::int8_t to_move_ = 0;
    std::int16_t num_moves_ = 0;
};

}  // namespace trigon
