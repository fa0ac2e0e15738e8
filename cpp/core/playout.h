// Fast complete games with a uniformly random legal move at every turn, played entirely in C++.
// Each colour keeps its legal moves incrementally: filtered when its turn comes, extended
// from the attach points its own last piece opened.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "position.h"
#include "random.h"

namespace trigon {

class RandomPlayout {
public:
    explicit RandomPlayout(const Position& start) : pos_(start) { reset(start); }

    // Starts again from a position.
    void reset(const Position& start);
    // Plays the chosen move (uniform among the legal ones) for the colour to move; returns the
    // placement id, or kPass when the game is over.
    int step(Rng& rng);
    // Plays to the end; returns the number of moves played.
    int run(Rng& rng);

    const Position& position() const { return pos_; }
    // Legal moves of the colour to move as of now (valid after refresh()).
    const std::vector<std::uint16_t>& moves(int c) const { return lists_[c]; }
    // Brings the colour's list up to date with the position.
    void refresh(int c);

private:
    void add_from(int c, const Bitboard& new_points);

    Position pos_;
    std::array<std::vector<std::uint16_t>, kNumColours> lists_;
    std::array<BitSet<kMaxPlacements / 64>, kNumColours> in_list_;
    std::array<bool, kNumColours> fresh_{};  // list built from scratch at least once
};

}  // namespace trigon
