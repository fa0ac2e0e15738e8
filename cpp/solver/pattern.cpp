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

// The puzzle in local numbering: region cells 0..n-1 (ascending board order), the pieces in
// use 0..k-1, and every placement inside the region. Shared by the searches of any word count.
struct LocalPuzzle {
    std::vector<int> cell_of;                   // local cell -> board cell
    std::vector<int> piece_of;                  // local piece -> piece index
    std::vector<int> copies;                    // local piece -> copies to place
    std::vector<std::uint16_t> ids;             // local placement -> placement id
    std::vector<std::uint8_t> piece;            // local placement -> local piece
    std::vector<std::array<std::int16_t, kMaxPieceSize>> cells;  // local placement -> local cells (-1 pad)
};

// Exact cover search over the placements still possible (the "list" of a node, filtered from its
// parent's): every node counts the options of each cell and piece in the same pass that builds its
// list, prunes on a dead item and branches on the item with the fewest options (Knuth's MRV rule).
template <int W>
class PatternSearch {
    using Mask = BitSet<W>;

    // Options per cell as a 4-bit sliced counter (plane k = bit k), saturating at 16, and per piece.
    struct Counts {
        std::uint64_t plane[4][W];
        std::uint64_t sat[W];
        int piece[kNumPieces];
    };

public:
    PatternSearch(const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o, const std::atomic<bool>* stop,
                  PatternResult& res, const std::vector<std::vector<int>>& syms)
        : t_(t), lp_(lp), opt_(o), stop_(stop), res_(res), syms_(syms) {
        const int np = static_cast<int>(lp.ids.size());
        masks_.resize(np);
        for (int i = 0; i < np; ++i)
            for (int c : lp.cells[i])
                if (c >= 0) masks_[i].set(c);
        pieces_ = static_cast<int>(lp.copies.size());
        // Pieces left as a mixed-radix number (exact memo keys) while it fits, else a sum of random keys.
        std::uint64_t radix = 1;
        bool exact = true;
        for (int p = 0; p < pieces_; ++p) {
            left_[p] = lp.copies[p];
            step_[p] = radix;
            const auto base = static_cast<std::uint64_t>(lp.copies[p]) + 1;
            exact = exact && radix <= (std::uint64_t{1} << 62) / base;
            if (exact) radix *= base;
        }
        if (!exact)
            for (int p = 0; p < pieces_; ++p) step_[p] = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(2 * p + 1);
        t0_ = Clock::now();
    }

    void run() {
        const int np = static_cast<int>(masks_.size());
        list_.resize(static_cast<std::size_t>(np) * 4 + 64);
        Counts c;
        clear(c);
        for (int i = 0; i < np; ++i) {
            list_[i] = static_cast<std::uint16_t>(i);
            add(c, i);
        }
        Mask R;
        for (std::size_t i = 0; i < lp_.cell_of.size(); ++i) R.set(static_cast<int>(i));
        res_.nodes = 1;
        if (opt_.all_solutions && !opt_.unique && opt_.max_stored <= 0) {
            res_.count = node<true>(R, 0, np, c);  // counting only: share the counts of equal subproblems
            if (aborted_) res_.count = counted_;
        } else {
            node<false>(R, 0, np, c);
        }
        res_.exhausted = !aborted_ && !(done_ && !opt_.all_solutions);
    }

private:
    static void clear(Counts& c) {
        for (auto& pl : c.plane)
            for (auto& w : pl) w = 0;
        for (auto& w : c.sat) w = 0;
        for (int& n : c.piece) n = 0;
    }

    void add(Counts& c, int i) const {
        const Mask& m = masks_[i];
        for (int k = 0; k < W; ++k) {
            std::uint64_t carry = m.w[k];
            for (int b = 0; b < 4; ++b) {
                const std::uint64_t next = c.plane[b][k] & carry;
                c.plane[b][k] ^= carry;
                carry = next;
            }
            c.sat[k] |= carry;
        }
        ++c.piece[lp_.piece[i]];
    }

    bool tick() {
        if ((++res_.nodes & 4095) == 0) {
            if ((stop_ && stop_->load()) ||
                (opt_.time_limit > 0 && std::chrono::duration<double>(Clock::now() - t0_).count() > opt_.time_limit))
                aborted_ = done_ = true;
        }
        return done_;
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

    // Memo of subproblem counts: open addressing, keyed by the uncovered cells and the pieces left.
    struct MemoEntry {
        std::uint64_t cells[W];
        std::uint64_t pieces;  // code + 1; 0: empty slot
        long long count;
    };

    static std::uint64_t hash_of(const Mask& R, std::uint64_t code) {
        std::uint64_t h = code * 0xD6E8FEB86659FD93ull;
        for (int k = 0; k < W; ++k) {
            h = (h ^ R.w[k]) * 0x9E3779B97F4A7C15ull;
            h ^= h >> 32;
        }
        return h;
    }

    MemoEntry* memo_slot(const Mask& R, std::uint64_t tag, std::uint64_t h) {
        const std::size_t mask = memo_.size() - 1;
        std::size_t i = static_cast<std::size_t>(h) & mask;
        for (int probe = 0; probe < 8; ++probe, i = (i + 1) & mask) {
            MemoEntry& e = memo_[i];
            if (e.pieces == 0) return &e;
            if (e.pieces == tag) {
                bool same = true;
                for (int k = 0; k < W; ++k) same = same && e.cells[k] == R.w[k];
                if (same) return &e;
            }
        }
        return nullptr;  // neighbourhood full: just don't memoise this one
    }

    void memo_store(const Mask& R, std::uint64_t tag, long long count) {
        static constexpr std::size_t kMaxSlots = (std::size_t{128} << 20) / sizeof(MemoEntry);
        if (memo_.empty()) memo_.resize(1024);
        if (2 * (memo_used_ + 1) > memo_.size() && 4 * memo_.size() <= kMaxSlots) {
            std::vector<MemoEntry> old(memo_.size() * 4);
            old.swap(memo_);
            memo_used_ = 0;
            for (const auto& e : old)
                if (e.pieces) {
                    Mask m;
                    for (int k = 0; k < W; ++k) m.w[k] = e.cells[k];
                    if (MemoEntry* s = memo_slot(m, e.pieces, hash_of(m, e.pieces)); s && s->pieces == 0) {
                        *s = e;
                        ++memo_used_;
                    }
                }
        }
        if (MemoEntry* s = memo_slot(R, tag, hash_of(R, tag))) {
            if (s->pieces == 0) ++memo_used_;
            for (int k = 0; k < W; ++k) s->cells[k] = R.w[k];
            s->pieces = tag;
            s->count = count;
        }
    }

    const MemoEntry* memo_find(const Mask& R, std::uint64_t tag) {
        if (memo_.empty()) return nullptr;
        const MemoEntry* e = memo_slot(R, tag, hash_of(R, tag));
        return e && e->pieces == tag ? e : nullptr;
    }

    // Searches the node whose possible placements are list_[lb, le) with their option counts `c`;
    // in counting mode returns the number of solutions below it.
    template <bool kCount>
    long long node(const Mask& R, std::size_t lb, std::size_t le, const Counts& c) {
        // A piece with fewer placements than copies to place, or a cell nobody covers: dead end.
        int best_piece = -1, best_piece_n = 1 << 30;
        for (int p = 0; p < pieces_; ++p) {
            if (left_[p] == 0) continue;
            if (c.piece[p] < left_[p]) return 0;
            if (left_[p] == 1 && c.piece[p] < best_piece_n) {
                best_piece_n = c.piece[p];
                best_piece = p;
            }
        }
        // The cells of R with the fewest options: narrow from the top plane down (bit-sliced minimum).
        Mask cand;
        bool any = false;
        for (int k = 0; k < W; ++k) {
            cand.w[k] = R.w[k] & ~c.sat[k];
            any = any || cand.w[k];
        }
        int cell_n = 16;
        if (any) {
            cell_n = 0;
            for (int b = 3; b >= 0; --b) {
                std::uint64_t acc = 0;
                for (int k = 0; k < W; ++k) acc |= cand.w[k] & ~c.plane[b][k];
                if (acc) {
                    for (int k = 0; k < W; ++k) cand.w[k] &= ~c.plane[b][k];
                } else {
                    cell_n |= 1 << b;
                }
            }
            if (cell_n == 0) return 0;
        } else {
            cand = R;
        }
        int cell = -1;
        for (int k = 0; k < W && cell < 0; ++k)
            if (cand.w[k]) cell = k * 64 + std::countr_zero(cand.w[k]);
        const bool by_piece = best_piece >= 0 && best_piece_n < cell_n;
        const std::uint64_t cell_bit = std::uint64_t{1} << (cell & 63);
        const int cell_word = cell >> 6;

        long long total = 0;
        for (std::size_t i = lb; i < le; ++i) {
            const int o = list_[i];
            if (by_piece ? lp_.piece[o] != best_piece : !(masks_[o].w[cell_word] & cell_bit)) continue;
            const Mask& om = masks_[o];
            const Mask next = R - om;
            const int op = lp_.piece[o];
            if (next.none()) {
                if constexpr (kCount) {
                    ++total;
                    ++counted_;
                } else {
                    path_.push_back(lp_.ids[o]);
                    record();
                    path_.pop_back();
                    if (done_) return total;
                }
                continue;
            }
            --left_[op];
            code_ += step_[op];
            const std::uint64_t tag = code_ + 1;
            if constexpr (kCount) {
                if (const MemoEntry* e = memo_find(next, tag)) {
                    total += e->count;
                    counted_ += e->count;
                    ++left_[op];
                    code_ -= step_[op];
                    continue;
                }
            }
            // The child's list: placements disjoint from o, of pieces still to place.
            if (list_.size() < le + (le - lb)) list_.resize(2 * list_.size() + (le - lb));
            Counts cc;
            clear(cc);
            std::size_t ce = le;
            const bool piece_gone = left_[op] == 0;
            for (std::size_t j = lb; j < le; ++j) {
                const int q = list_[j];
                if (masks_[q].intersects(om) || (piece_gone && lp_.piece[q] == op)) continue;
                list_[ce++] = static_cast<std::uint16_t>(q);
                add(cc, q);
            }
            if (!tick()) {
                if constexpr (kCount) {
                    const long long n = node<true>(next, le, ce, cc);
                    total += n;
                    if (!done_) memo_store(next, tag, n);
                } else {
                    path_.push_back(lp_.ids[o]);
                    node<false>(next, le, ce, cc);
                    path_.pop_back();
                }
            }
            ++left_[op];
            code_ -= step_[op];
            if (done_) return total;
        }
        return total;
    }

    const MoveTable& t_;
    const LocalPuzzle& lp_;
    const PatternOptions& opt_;
    const std::atomic<bool>* stop_;
    PatternResult& res_;
    const std::vector<std::vector<int>>& syms_;
    std::vector<Mask> masks_;
    int pieces_ = 0;
    int left_[kNumPieces] = {};
    std::uint64_t step_[kNumPieces] = {};
    std::uint64_t code_ = 0;
    std::vector<std::uint16_t> list_;  // the lists of the nodes on the current path, end to end
    std::vector<int> path_;
    std::set<std::vector<std::uint16_t>> keys_;
    std::vector<MemoEntry> memo_;
    std::size_t memo_used_ = 0;
    long long counted_ = 0;  // solutions counted so far (a lower bound when stopped early)
    bool done_ = false, aborted_ = false;
    Clock::time_point t0_;
};

template <int W>
void search(const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o, const std::atomic<bool>* stop,
            PatternResult& res, const std::vector<std::vector<int>>& syms) {
    PatternSearch<W> s(t, lp, o, stop, res, syms);
    s.run();
}

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
    if (area == 0) {
        res.count = 1;
        res.solutions.push_back({});
        res.exhausted = true;
        return finish();
    }
    // Local numbering: cells in ascending board order, placements found from their first cell.
    LocalPuzzle lp;
    std::vector<std::int16_t> local(geo.num_cells(), -1);
    region.for_each([&](int c) {
        local[c] = static_cast<std::int16_t>(lp.cell_of.size());
        lp.cell_of.push_back(c);
    });
    int local_piece[kNumPieces];
    for (int p = 0; p < kNumPieces; ++p) {
        local_piece[p] = -1;
        if (piece_counts[p] <= 0) continue;
        local_piece[p] = static_cast<int>(lp.piece_of.size());
        lp.piece_of.push_back(p);
        lp.copies.push_back(piece_counts[p]);
    }
    Bitboard coverable;
    for (int c : lp.cell_of)
        for (int p : lp.piece_of)
            for (auto id : t.at(c, 0, p)) {
                const Placement& pl = t.placement(id);
                if (pl.cells[0] != c) continue;
                std::array<std::int16_t, kMaxPieceSize> lc;
                lc.fill(-1);
                bool inside = true;
                for (int i = 0; i < pl.size && inside; ++i) inside = (lc[i] = local[pl.cells[i]]) >= 0;
                if (!inside) continue;
                lp.ids.push_back(id);
                lp.piece.push_back(static_cast<std::uint8_t>(local_piece[p]));
                lp.cells.push_back(lc);
                coverable |= t.cells_mask(id);
            }
    Bitboard uncovered = region - coverable;
    if (uncovered.any()) {
        int c = -1;
        uncovered.for_each([&](int x) { if (c < 0) c = x; });
        res.exhausted = true;
        res.impossible = "no piece fits on cell " + geo.cell_name(c);
        return finish();
    }
    const auto syms = options.unique ? region_symmetries(geo, cells) : std::vector<std::vector<int>>{};
    res.symmetries = options.unique ? static_cast<int>(syms.size()) : 1;
    const int words = (area + 63) / 64;
    if (words <= 1)
        search<1>(t, lp, options, stop, res, syms);
    else if (words <= 2)
        search<2>(t, lp, options, stop, res, syms);
    else if (words <= 4)
        search<4>(t, lp, options, stop, res, syms);
    else
        search<8>(t, lp, options, stop, res, syms);
    return finish();
}

}  // namespace trigon::solver
