// Fast complete games with a uniformly random legal move at every turn, played entirely in C++.
// Each colour keeps two move sets over all placements: `unblocked` (no forbidden cell, piece
// left, alternate rule kept) and `reach` (covers one of its attach points, or a start cell
// before its first move); the legal moves are their intersection. A move updates the sets in
// time proportional to the cells it changes, never to the number of legal moves.
#pragma once

#include <array>
#include <cstdint>

#include "position.h"
#include "random.h"

namespace trigon {

class RandomPlayout {
public:
    // Builds the move sets of `start` (about a millisecond on a mid-game position).
    explicit RandomPlayout(const Position& start);

    // Back to the start position given last (a copy of cached sets: no recomputation).
    void reset();
    // Starts again from another position.
    void reset(const Position& start);

    const Position& position() const { return pos_; }
    bool is_over() const { return pos_.is_over(); }
    int to_move() const { return pos_.to_move(); }

    // Legal moves of colour c now, written to `out` (capacity kMaxPlacements); returns the count.
    int legal_moves(int c, std::uint16_t* out) const;
    int count_moves(int c) const;
    bool has_moves(int c) const;
    // A uniformly random legal move of the colour to move (kPass when the game is over).
    int random_move(Rng& rng) const;
    // Plays a legal move of the colour to move and passes the turn on.
    void play(int id);
    // random_move + play; returns the id, or kPass at the end.
    int step(Rng& rng);
    // Plays to the end; returns the number of moves played.
    int run(Rng& rng);

private:
    void build_sets();
    void refresh_start_reach(int c);
    void pass_turn(int from);

    Position pos_;
    std::array<MoveSet, kNumColours> unblocked_, reach_;
    // Cached start state for reset().
    Position start_pos_;
    std::array<MoveSet, kNumColours> start_unblocked_, start_reach_;
};

}  // namespace trigon
