#include "search/fast_playout.h"

#include <algorithm>
#include <bit>

namespace trigon::search {

namespace {

// The r-th lowest set bit of w (r < popcount(w)).
int nth_set32(std::uint32_t w, int r) {
    for (; r > 0; --r) w &= w - 1;
    return std::countr_zero(w);
}

int local_status(const Position& pos, int c, int cell) {
    const auto& nbs = pos.table().geo().edge_neighbours(cell);
    const Bitboard& forb = pos.forbidden(c);
    int st = 0;
    for (std::size_t i = 0; i < nbs.size(); ++i) st |= static_cast<int>(forb.test(nbs[i])) << i;
    return st;
}

}  // namespace

void SampledPlayout::reset(const Position& start) {
    pos_ = start;
    for (int c = 0; c < kNumColours; ++c) {
        lists_[c].clear();
        exact_[c] = false;
    }
}

int SampledPlayout::sample(int c, Rng& rng) {
    const MoveTable& t = pos_.table();
    const Bitboard points = pos_.seed_cells(c);
    const int npoints = points.count();
    const std::uint32_t left = pos_.pieces_left(c);
    const int npieces = std::popcount(left);
    if (npoints == 0 || npieces == 0) return kPass;
    const int tries = give_up_tries_ > 0 ? give_up_tries_ : kSampleTries;
    for (int attempt = 0; attempt < tries; ++attempt) {
        const int p = points.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(npoints))));
        int piece = nth_set32(left, static_cast<int>(rng.below(static_cast<std::uint32_t>(npieces))));
        if (large_bias_ > 0 && rng.uniform() < large_bias_) {
            // Pieces are numbered largest first: the smaller index of two is the larger piece.
            piece = std::min(piece, nth_set32(left, static_cast<int>(rng.below(static_cast<std::uint32_t>(npieces)))));
        }
        const auto range = t.at(p, local_status(pos_, c, p), piece);
        if (range.size() == 0) continue;
        const int id = range.first[rng.below(static_cast<std::uint32_t>(range.size()))];
        if (pos_.still_legal(c, id)) return id;
    }
    return give_up_tries_ > 0 ? kPass : -1;  // -1: undecided, the exact list decides
}

void SampledPlayout::build_list(int c) {
    MoveList ml;
    pos_.generate(c, ml);
    lists_[c].assign(ml.begin(), ml.end());
    exact_[c] = true;
}

void SampledPlayout::extend_list(int c, const Bitboard& before) {
    // The moves at the attach points c's last piece opened: a legal placement covering an older
    // point is listed already (legality only shrinks), so generate_at lists only the others.
    MoveList ml;
    ml.size = pos_.generate_at(c, pos_.attach_points(c) - before, ml.moves.data());
    lists_[c].insert(lists_[c].end(), ml.begin(), ml.end());
}

int SampledPlayout::choose(int c, Rng& rng) {
    if (!exact_[c]) {
        const int id = sample(c, rng);
        if (id >= 0) return id;  // a sampled legal move, or kPass (no attach point left)
        build_list(c);
    } else {
        auto& list = lists_[c];
        std::size_t keep = 0;
        for (std::size_t i = 0; i < list.size(); ++i)
            if (pos_.still_legal(c, list[i])) list[keep++] = list[i];
        list.resize(keep);
    }
    const auto& list = lists_[c];
    if (list.empty()) return kPass;
    return list[rng.below(static_cast<std::uint32_t>(list.size()))];
}

int SampledPlayout::run(Rng& rng) {
    int moves = 0;
    int c = pos_.to_move();
    // The turn passes round; a colour with no move is out for good (the game ends when all are).
    while (!pos_.is_over()) {
        if (pos_.in_play(c) && !pos_.is_out(c)) {
            const int id = choose(c, rng);
            if (id == kPass) {
                pos_.mark_out(c);
            } else {
                const bool list_kept = exact_[c] && pos_.started(c);
                const Bitboard before = pos_.attach_points(c);
                pos_.place(c, id);
                ++moves;
                if (list_kept) {
                    extend_list(c, before);
                } else if (exact_[c]) {
                    exact_[c] = false;  // that was the first move: the list was of first moves
                    lists_[c].clear();
                }
            }
        }
        c = (c + 1) % kNumColours;
    }
    return moves;
}

}  // namespace trigon::search
