#include "playout.h"

namespace trigon {

void RandomPlayout::reset(const Position& start) {
    pos_ = start;
    for (int c = 0; c < kNumColours; ++c) {
        lists_[c].clear();
        lists_[c].reserve(4096);
        in_list_[c] = {};
        fresh_[c] = false;
    }
}

void RandomPlayout::refresh(int c) {
    auto& list = lists_[c];
    if (!fresh_[c] || !pos_.started(c)) {
        // First moves (and the first call) come from the full generator.
        for (auto id : list) in_list_[c].reset(id);
        list.clear();
        MoveList ml;
        pos_.generate(c, ml);
        for (auto id : ml) {
            list.push_back(id);
            in_list_[c].set(id);
        }
        fresh_[c] = true;
        return;
    }
    std::size_t keep = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        auto id = list[i];
        if (pos_.still_legal(c, id))
            list[keep++] = id;
        else
            in_list_[c].reset(id);
    }
    list.resize(keep);
}

void RandomPlayout::add_from(int c, const Bitboard& new_points) {
    // Candidates at each newly opened attach point; still_legal checks the whole placement.
    const MoveTable& t = pos_.table();
    const std::uint32_t left = pos_.pieces_left(c);
    const Bitboard& forb = pos_.forbidden(c);
    new_points.for_each([&](int p) {
        const auto& nbs = t.geo().edge_neighbours(p);
        int st = 0;
        for (std::size_t i = 0; i < nbs.size(); ++i) st |= static_cast<int>(forb.test(nbs[i])) << i;
        for (std::uint32_t l = left; l; l &= l - 1) {
            int piece = std::countr_zero(l);
            for (auto id : t.at(p, st, piece)) {
                if (in_list_[c].test(id) || !pos_.still_legal(c, id)) continue;
                in_list_[c].set(id);
                lists_[c].push_back(id);
            }
        }
    });
}

int RandomPlayout::step(Rng& rng) {
    if (pos_.is_over()) return kPass;
    const int c = pos_.to_move();
    refresh(c);
    auto& list = lists_[c];
    // to_move() always has a move, so the list is not empty.
    const int id = list[rng.below(static_cast<std::uint32_t>(list.size()))];
    const Bitboard before = pos_.attach_points(c);
    const bool was_started = pos_.started(c);
    pos_.place(c, id);
    if (was_started) add_from(c, pos_.attach_points(c) - before);
    else fresh_[c] = false;  // regenerate fully after the first move
    // Pass the turn: a colour is out when its refreshed list is empty.
    for (int i = 1; i <= kNumColours; ++i) {
        int k = (c + i) % kNumColours;
        if (pos_.is_out(k)) continue;
        if (pos_.started(k) && fresh_[k]) {
            refresh(k);
            if (!lists_[k].empty()) {
                pos_.force_turn(k);
                return id;
            }
            pos_.mark_out(k);
        } else if (pos_.has_move(k)) {
            pos_.force_turn(k);
            return id;
        } else {
            pos_.mark_out(k);
        }
    }
    return id;
}

int RandomPlayout::run(Rng& rng) {
    int n = 0;
    while (step(rng) != kPass) ++n;
    return n;
}

}  // namespace trigon
