// Cheap playout policy for the search: instead of keeping every legal move of every colour up
// to date (the core's RandomPlayout), a move is sampled: a random attach point, a random piece
// left, a random placement of it there, kept when still legal. A colour on which sampling keeps
// failing switches to an exact incremental move list for the rest of the game (late game, small).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/position.h"
#include "core/random.h"

namespace trigon::search {

class SampledPlayout {
public:
    explicit SampledPlayout(const Position& start) : pos_(start) { reset(start); }

    // Starts again from a position.
    void reset(const Position& start);
    // Plays to the end of the game; returns the number of moves played.
    int run(Rng& rng);
    const Position& position() const { return pos_; }
    // Chance (0..1) that a sampled piece is the larger of two random pieces left.
    void set_large_piece_bias(float bias) { large_bias_ = bias; }
    // Approximate ends: a colour on which `tries` samples in a row fail is out, without the
    // exact list (cheaper; the colour may lose a few late moves). 0: exact ends.
    void set_give_up_tries(int tries) { give_up_tries_ = tries; }

    // Sampling attempts per turn before the colour switches to an exact list.
    static constexpr int kSampleTries = 24;

private:
    // A move for colour c (kPass when it has none); does not play it.
    int choose(int c, Rng& rng);
    int sample(int c, Rng& rng);
    void build_list(int c);
    void extend_list(int c, const Bitboard& before);

    Position pos_;
    std::array<std::vector<std::uint16_t>, kNumColours> lists_;
    std::array<bool, kNumColours> exact_{};  // colour uses its exact list
    float large_bias_ = 0;
    int give_up_tries_ = 0;
};

}  // namespace trigon::search
