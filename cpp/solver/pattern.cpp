#include "solver/pattern.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

namespace trigon::solver {

namespace {

using Clock = std::chrono::steady_clock;

// Cell maps of the lattice symmetries (rotation/reflection then translation) that map the
// region onto itself; the identity first.
std::vector<std::vector<int>> region_symmetries(const Geometry& geo, const std::vector<int>& cells) {
    std::vector<LatticeCell> reg;
    for (int c : cells) reg.push_back(geo.lattice(c));
    std::vector<LatticeCell> sorted_reg = reg;
    std::sort(sorted_reg.begin(), sorted_reg.end());
    std::vector<std::vector<int>> out;
    for (int k = 0; k < kNumSymmetries; ++k) {
        std::vector<LatticeCell> img;
        for (const auto& L : reg) img.push_back(transform_cell(L, k));
        LatticeCell lo = *std::min_element(img.begin(), img.end());
        if (lo.t != sorted_reg[0].t) continue;
        const int da = sorted_reg[0].a - lo.a, db = sorted_reg[0].b - lo.b;
        std::vector<int> map(geo.num_cells(), -1);
        std::vector<LatticeCell> moved;
        bool ok = true;
        for (std::size_t i = 0; i < img.size() && ok; ++i) {
            LatticeCell m{img[i].a + da, img[i].b + db, img[i].t};
            int to = geo.cell_of(m);
            if (to < 0) ok = false;
            map[cells[i]] = to;
            moved.push_back(m);
        }
        if (!ok) continue;
        std::sort(moved.begin(), moved.end());
        if (moved != sorted_reg) continue;
        bool identity = true;
        for (int c : cells) identity = identity && map[c] == c;
        if (identity)
            out.insert(out.begin(), map);
        else
            out.push_back(map);
    }
    return out;
}

class PatternSearch {
public:
    PatternSearch(const MoveTable& t, const Bitboard& region, const std::array<int, kNumPieces>& counts,
                  const PatternOptions& o, const std::atomic<bool>* stop, PatternResult& res,
                  const std::vector<std::vector<int>>& syms)
        : t_(t), counts_(counts), opt_(o), stop_(stop), res_(res), syms_(syms), by_cell_(t.geo().num_cells()) {
        const int n = t.geo().num_cells();
        nb_.assign(static_cast<std::size_t>(n) * 3, -1);
        for (int c = 0; c < n; ++c)
            for (std::size_t i = 0; i < t.geo().edge_neighbours(c).size(); ++i) nb_[c * 3 + i] = t.geo().edge_neighbours(c)[i];
        wit_.assign(kNumPieces * (n / 1 + 2), kNoWitness);
        // Placements inside the region, found from the region's cells (each once: at its first cell).
        region.for_each([&](int cell) {
            for (int p = 0; p < kNumPieces; ++p) {
                if (counts[p] <= 0) continue;
                for (auto id : t.at(cell, 0, p)) {
                    const Placement& pl = t.placement(id);
                    if (pl.cells[0] != cell || (t.cells_mask(id) - region).any()) continue;
                    for (int i = 0; i < pl.size; ++i) by_cell_[pl.cells[i]].push_back(id);
                    by_piece_[p].push_back(id);
                    coverable_ |= t.cells_mask(id);
                }
            }
        });
        for (int p = 0; p < kNumPieces; ++p) {
            sizes_[p] = trigon_pieces()[p].size;
            piece_key_[p] = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(2 * p + 1) ^ 0xD1B54A32D192ED03ull;
        }
        t0_ = Clock::now();
    }

    const Bitboard& coverable() const { return coverable_; }

    void run(const Bitboard& region) {
        if (opt_.all_solutions && !opt_.unique && opt_.max_stored <= 0) {
            res_.count = count_dfs(region, 0);  // counting only: share the counts of equal subproblems
            if (aborted_) res_.count = counted_;
        } else {
            dfs(region, 0);
        }
        res_.exhausted = !aborted_ && !(done_ && !opt_.all_solutions);
    }

private:
    int min_size_left() const {
        for (int p = kNumPieces - 1; p >= 0; --p)
            if (counts_[p] > 0) return sizes_[p];
        return 0;
    }

    // True when a cell next to the newly covered ones is cut off alone and no triangle is left.
    bool isolates_cell(const Bitboard& R, int id) const {
        if (counts_[kNumPieces - 1] > 0) return false;
        const Geometry& g = t_.geo();
        const Placement& pl = t_.placement(id);
        for (int i = 0; i < pl.size; ++i)
            for (int nb : g.edge_neighbours(pl.cells[i])) {
                if (!R.test(nb)) continue;
                bool alone = true;
                for (int nb2 : g.edge_neighbours(nb)) alone = alone && !R.test(nb2);
                if (alone) return true;
            }
        return false;
    }

    void record() {
        if (opt_.unique) {
            std::vector<std::uint16_t> best;
            for (const auto& map : syms_) {
                std::vector<std::uint16_t> img;
                for (int id : path_) {
                    const Placement& pl = t_.placement(id);
                    int cells[kMaxPieceSize];
                    for (int i = 0; i < pl.size; ++i) cells[i] = map[pl.cells[i]];
                    img.push_back(static_cast<std::uint16_t>(t_.find(cells, pl.size)));
                }
                std::sort(img.begin(), img.end());
                if (best.empty() || img < best) best = img;
            }
            if (!keys_.insert(best).second) return;
        }
        ++res_.count;
        if (static_cast<long long>(res_.solutions.size()) < opt_.max_stored) res_.solutions.push_back(path_);
        if (!opt_.all_solutions) done_ = true;
    }

    // Every piece still to place must fit somewhere in R (witness placements cached per depth).
    bool pieces_fit(const Bitboard& R, int depth) {
        std::uint16_t* w = &wit_[static_cast<std::size_t>(depth) * kNumPieces];
        const std::uint16_t* parent = depth > 0 ? w - kNumPieces : nullptr;
        for (int p = 0; p < kNumPieces; ++p) {
            if (counts_[p] <= 0) continue;
            std::uint16_t cand = parent ? parent[p] : kNoWitness;
            if (cand == kNoWitness || (t_.cells_mask(cand) - R).any()) {
                cand = kNoWitness;
                for (auto id : by_piece_[p])
                    if ((t_.cells_mask(id) - R).none()) {
                        cand = id;
                        break;
                    }
                if (cand == kNoWitness) return false;
            }
            w[p] = cand;
        }
        return true;
    }

    // The most constrained uncovered cell by geometry: fewest uncovered edge neighbours, then lowest.
    int choose_cell(const Bitboard& R) const {
        int best = -1, best_free = 4;
        for (int w = 0; w < Bitboard::kWords; ++w) {
            std::uint64_t bits = R.w[w];
            while (bits) {
                const int c = w * 64 + std::countr_zero(bits);
                bits &= bits - 1;
                const int* e = &nb_[c * 3];
                int f = 0;
                for (int i = 0; i < 3; ++i) f += e[i] >= 0 && R.test(e[i]);
                if (f < best_free) {
                    best_free = f;
                    best = c;
                    if (f <= 1) return best;
                }
            }
        }
        return best;
    }

    // Memo of subproblem counts: open addressing on a 128-bit key (uncovered cells + pieces left).
    struct MemoEntry {
        std::uint64_t a = 0, b = 0;  // b == 0: empty slot
        long long count = 0;
    };
    static constexpr std::size_t kMaxMemoSlots = std::size_t{1} << 22;

    void key_of(const Bitboard& R, std::uint64_t& a, std::uint64_t& b) const {
        a = pieces_hash_;
        b = 0x13198A2E03707344ull;
        for (int w = 0; w < Bitboard::kWords; ++w) {
            a = (a ^ R.w[w]) * 0x100000001B3ull;
            a ^= a >> 29;
            b = (b + R.w[w]) * 0xBF58476D1CE4E5B9ull;
            b ^= b >> 31;
        }
        b |= 1;
    }

    MemoEntry* memo_slot(std::uint64_t a, std::uint64_t b) {
        const std::size_t mask = memo_.size() - 1;
        std::size_t i = static_cast<std::size_t>(a) & mask;
        for (int probe = 0; probe < 8; ++probe, i = (i + 1) & mask)
            if (memo_[i].b == 0 || (memo_[i].a == a && memo_[i].b == b)) return &memo_[i];
        return nullptr;  // neighbourhood full: just don't memoise this one
    }

    void memo_store(std::uint64_t a, std::uint64_t b, long long count) {
        if (2 * (memo_used_ + 1) > memo_.size() && memo_.size() < kMaxMemoSlots) {
            std::vector<MemoEntry> old(memo_.size() * 4);
            old.swap(memo_);
            memo_used_ = 0;
            for (const auto& e : old)
                if (e.b)
                    if (MemoEntry* s = memo_slot(e.a, e.b); s && s->b == 0) {
                        *s = e;
                        ++memo_used_;
                    }
        }
        if (MemoEntry* s = memo_slot(a, b)) {
            if (s->b == 0) ++memo_used_;
            *s = {a, b, count};
        }
    }

    // Number of ways to cover R with the pieces left; equal subproblems are counted once.
    long long count_dfs(const Bitboard& R, int depth) {
        if (done_) return 0;
        if ((++res_.nodes & 4095) == 0) {
            if ((stop_ && stop_->load()) ||
                (opt_.time_limit > 0 && std::chrono::duration<double>(Clock::now() - t0_).count() > opt_.time_limit)) {
                aborted_ = done_ = true;
                return 0;
            }
        }
        if (R.none()) {
            ++counted_;
            return 1;
        }
        std::uint64_t ka, kb;
        key_of(R, ka, kb);
        MemoEntry* slot = memo_slot(ka, kb);
        if (slot && slot->b == kb) {
            counted_ += slot->count;
            return slot->count;
        }
        long long total = 0;
        if (pieces_fit(R, depth)) {
            const int e = choose_cell(R);
            for (auto id : by_cell_[e]) {
                const Placement& pl = t_.placement(id);
                if (counts_[pl.piece] <= 0) continue;
                const Bitboard& cm = t_.cells_mask(id);
                if ((cm - R).any()) continue;
                const Bitboard next = R - cm;
                --counts_[pl.piece];
                pieces_hash_ += piece_key_[pl.piece];
                if (!isolates_cell(next, id)) total += count_dfs(next, depth + 1);
                pieces_hash_ -= piece_key_[pl.piece];
                ++counts_[pl.piece];
                if (done_) return total;
            }
        }
        if (!done_) memo_store(ka, kb, total);
        return total;
    }

    void dfs(const Bitboard& R, int depth) {
        if (done_) return;
        if ((++res_.nodes & 4095) == 0) {
            if ((stop_ && stop_->load()) ||
                (opt_.time_limit > 0 && std::chrono::duration<double>(Clock::now() - t0_).count() > opt_.time_limit)) {
                aborted_ = done_ = true;
                return;
            }
        }
        if (R.none()) {
            record();
            return;
        }
        if (!pieces_fit(R, depth)) return;
        const int e = choose_cell(R);
        for (auto id : by_cell_[e]) {
            const Placement& pl = t_.placement(id);
            if (counts_[pl.piece] <= 0) continue;
            const Bitboard& cm = t_.cells_mask(id);
            if ((cm - R).any()) continue;
            const Bitboard next = R - cm;
            --counts_[pl.piece];
            if (!isolates_cell(next, id)) {
                path_.push_back(id);
                dfs(next, depth + 1);
                path_.pop_back();
            }
            ++counts_[pl.piece];
            if (done_) return;
        }
    }

    const MoveTable& t_;
    std::array<int, kNumPieces> counts_;
    const PatternOptions& opt_;
    const std::atomic<bool>* stop_;
    PatternResult& res_;
    const std::vector<std::vector<int>>& syms_;
    static constexpr std::uint16_t kNoWitness = 0xFFFF;
    std::vector<std::vector<std::uint16_t>> by_cell_;
    std::array<std::vector<std::uint16_t>, kNumPieces> by_piece_;
    std::vector<int> nb_;
    std::vector<std::uint16_t> wit_;
    Bitboard coverable_;
    int sizes_[kNumPieces] = {};
    std::vector<int> path_;
    std::set<std::vector<std::uint16_t>> keys_;
    std::vector<MemoEntry> memo_ = std::vector<MemoEntry>(1024);
    std::size_t memo_used_ = 0;
    std::uint64_t pieces_hash_ = 0x243F6A8885A308D3ull;  // changes by piece_key_[p] per copy of p used
    std::uint64_t piece_key_[kNumPieces] = {};
    long long counted_ = 0;  // solutions counted so far (a lower bound when stopped early)
    bool done_ = false, aborted_ = false;
    Clock::time_point t0_;
};

}  // namespace

PatternResult solve_pattern(int side, const std::vector<int>& cells, const std::array<int, kNumPieces>& piece_counts,
                            const PatternOptions& options, const std::atomic<bool>* stop) {
    const auto t0 = Clock::now();
    const MoveTable& t = MoveTable::get(side);
    const Geometry& geo = t.geo();
    Bitboard region;
    for (int c : cells) {
        if (c < 0 || c >= geo.num_cells()) throw std::invalid_argument("region cell out of range");
        if (region.test(c)) throw std::invalid_argument("region cell given twice");
        region.set(c);
    }
    int piece_area = 0, smallest = 0;
    for (int p = 0; p < kNumPieces; ++p) {
        if (piece_counts[p] < 0) throw std::invalid_argument("negative piece count");
        piece_area += piece_counts[p] * trigon_pieces()[p].size;
        if (piece_counts[p] > 0) smallest = trigon_pieces()[p].size;
    }
    PatternResult res;
    auto finish = [&] {
        res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return res;
    };
    const int area = static_cast<int>(cells.size());
    if (area != piece_area) {
        res.exhausted = true;
        res.impossible = "area mismatch: the region has " + std::to_string(area) + " cells, the pieces " +
                         std::to_string(piece_area);
        return finish();
    }
    // Edge-connected parts of the region: each must be at least as large as the smallest piece,
    // and its area a sum of some of the pieces' sizes.
    {
        Bitboard rem = region;
        std::vector<int> stack;
        std::vector<char> reachable(piece_area + 1, 0);
        reachable[0] = 1;
        for (int p = 0; p < kNumPieces; ++p)
            for (int k = 0; k < piece_counts[p]; ++k)
                for (int a = piece_area; a >= trigon_pieces()[p].size; --a)
                    if (reachable[a - trigon_pieces()[p].size]) reachable[a] = 1;
        for (int c : cells) {
            if (!rem.test(c)) continue;
            int size = 0;
            stack.assign(1, c);
            rem.reset(c);
            while (!stack.empty()) {
                int x = stack.back();
                stack.pop_back();
                ++size;
                for (int nb : geo.edge_neighbours(x))
                    if (rem.test(nb)) {
                        rem.reset(nb);
                        stack.push_back(nb);
                    }
            }
            if (size < smallest || !reachable[size]) {
                res.exhausted = true;
                res.impossible = "a separate part of " + std::to_string(size) + " cells (around " + geo.cell_name(c) +
                                 ") cannot be made of the pieces";
                return finish();
            }
        }
    }
    const auto syms = options.unique ? region_symmetries(geo, cells) : std::vector<std::vector<int>>{};
    res.symmetries = options.unique ? static_cast<int>(syms.size()) : 1;
    PatternSearch search(t, region, piece_counts, options, stop, res, syms);
    Bitboard uncovered = region - search.coverable();
    if (uncovered.any()) {
        int c = -1;
        uncovered.for_each([&](int x) { if (c < 0) c = x; });
        res.exhausted = true;
        res.impossible = "no piece fits on cell " + geo.cell_name(c);
        return finish();
    }
    if (area == 0) {
        res.count = 1;
        res.solutions.push_back({});
        res.exhausted = true;
        return finish();
    }
    search.run(region);
    return finish();
}

}  // namespace trigon::solver
