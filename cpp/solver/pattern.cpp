#include "solver/pattern.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

namespace trigon::solver {

namespace {

using Clock = std::chrono::steady_clock;

// Smaller puzzles are counted in microseconds: finding their symmetries would cost more.
constexpr int kSymmetryMinArea = 30;

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

// Exact cover search in the manner of dancing links, on bit sets: each node holds the set of
// placements still possible; the options of every cell and piece are counted incrementally as
// placements drop out, so a node prunes on a dead item at once and branches on the item with the
// fewest options (Knuth's MRV rule) without scanning the placements.
template <int W>
class PatternSearch {
    using Mask = BitSet<W>;

public:
    PatternSearch(const MoveTable& t, const LocalPuzzle& lp, const PatternOptions& o, const std::atomic<bool>* stop,
                  PatternResult& res, const std::vector<std::vector<int>>& syms)
        : t_(t), lp_(lp), opt_(o), stop_(stop), res_(res), syms_(syms) {
        np_ = static_cast<int>(lp.ids.size());
        pw_ = (np_ + 63) / 64;
        const int ncells = static_cast<int>(lp.cell_of.size());
        pieces_ = static_cast<int>(lp.copies.size());
        masks_.resize(np_);
        cells_.resize(static_cast<std::size_t>(np_) * kMaxPieceSize);
        size_.resize(np_);
        cnt_.assign(ncells, 0);
        cover_lo_.assign(ncells, pw_);
        cover_hi_.assign(ncells, 0);
        for (int q = 0; q < np_; ++q) {
            int n = 0;
            for (int c : lp.cells[q])
                if (c >= 0) {
                    masks_[q].set(c);
                    cells_[q * kMaxPieceSize + n++] = static_cast<std::int16_t>(c);
                    ++cnt_[c];
                    cover_lo_[c] = std::min(cover_lo_[c], q >> 6);
                    cover_hi_[c] = std::max(cover_hi_[c], (q >> 6) + 1);
                }
            size_[q] = static_cast<std::uint8_t>(n);
            ++pcnt_[lp.piece[q]];
        }
        // Placements covering a cell, as bits over the few words where they lie (placements are
        // numbered by first cell, so those of one cell are close together).
        cover_off_.resize(ncells);
        std::size_t total = 0;
        for (int c = 0; c < ncells; ++c) {
            cover_off_[c] = total;
            total += static_cast<std::size_t>(std::max(0, cover_hi_[c] - cover_lo_[c]));
        }
        cover_words_.assign(total, 0);
        piece_words_.assign(static_cast<std::size_t>(pieces_) * pw_, 0);
        for (int q = 0; q < np_; ++q) {
            for (int i = 0; i < size_[q]; ++i) {
                const int c = cells_[q * kMaxPieceSize + i];
                cover_words_[cover_off_[c] + (q >> 6) - cover_lo_[c]] |= std::uint64_t{1} << (q & 63);
            }
            piece_words_[static_cast<std::size_t>(lp.piece[q]) * pw_ + (q >> 6)] |= std::uint64_t{1} << (q & 63);
        }
        // Pieces left as a mixed-radix number (exact memo keys) while it fits, else a sum of random keys.
        std::uint64_t radix = 1;
        bool exact = true;
        int levels = 1;
        for (int p = 0; p < pieces_; ++p) {
            left_[p] = lp.copies[p];
            levels += lp.copies[p];
            step_[p] = radix;
            const auto base = static_cast<std::uint64_t>(lp.copies[p]) + 1;
            exact = exact && radix <= (std::uint64_t{1} << 62) / base;
            if (exact) radix *= base;
        }
        if (!exact)
            for (int p = 0; p < pieces_; ++p) step_[p] = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(2 * p + 1);
        live_.assign(static_cast<std::size_t>(levels) * pw_, 0);
        rem_.assign(static_cast<std::size_t>(levels) * pw_, 0);
        for (int q = 0; q < np_; ++q) live_[q >> 6] |= std::uint64_t{1} << (q & 63);
        t0_ = Clock::now();
    }

    // Counting only: the root branches on one piece over one placement per orbit of the region's
    // symmetries, weighted by the orbit's size (solutions with the piece at x and at g(x) are
    // equinumerous, whatever symmetries the solutions themselves have).
    void use_symmetry(const std::vector<std::vector<int>>& maps) {
        if (maps.size() < 2) return;
        std::vector<int> local_of(t_.num_placements(), -1);
        for (int q = 0; q < np_; ++q) local_of[lp_.ids[q]] = q;
        std::vector<int> orbit(np_, -1), weight(np_, 0);
        std::vector<int> reps(pieces_, 0);
        for (int q = 0; q < np_; ++q) {
            if (lp_.copies[lp_.piece[q]] != 1 || orbit[q] >= 0) continue;
            ++reps[lp_.piece[q]];
            const Placement& pl = t_.placement(lp_.ids[q]);
            for (const auto& map : maps) {
                int cells[kMaxPieceSize];
                for (int i = 0; i < pl.size; ++i) cells[i] = map[pl.cells[i]];
                const int img = t_.find(cells, pl.size);
                const int lq = img >= 0 ? local_of[img] : -1;
                if (lq >= 0 && orbit[lq] < 0) {
                    orbit[lq] = q;
                    ++weight[q];
                }
            }
        }
        // The piece with the fewest orbits (the root's fewest branches), if the symmetry saves any.
        int best = -1;
        for (int p = 0; p < pieces_; ++p)
            if (reps[p] > 0 && pcnt_[p] > reps[p] && (best < 0 || reps[p] < reps[best])) best = p;
        if (best < 0) return;
        root_piece_ = best;
        root_weight_.assign(np_, 0);
        for (int q = 0; q < np_; ++q)
            if (lp_.piece[q] == best && orbit[q] == q) root_weight_[q] = weight[q];
    }

    void run() {
        Mask R;
        for (std::size_t i = 0; i < lp_.cell_of.size(); ++i) R.set(static_cast<int>(i));
        res_.nodes = 1;
        if (opt_.all_solutions && !opt_.unique && opt_.max_stored <= 0) {
            res_.count = node<true>(R, 0);  // counting only: share the counts of equal subproblems
            if (aborted_) res_.count = counted_;
        } else {
            root_piece_ = -1;
            node<false>(R, 0);
        }
        res_.exhausted = !aborted_ && !(done_ && !opt_.all_solutions);
    }

private:
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

    // Searches the node at `depth` (its possible placements: live_ at that level) with R uncovered;
    // in counting mode returns the number of solutions below it.
    template <bool kCount>
    long long node(const Mask& R, int depth) {
        // A piece with fewer placements than copies to place, or a cell nobody covers: dead end.
        int best_piece = -1, best_piece_n = 1 << 30;
        for (int p = 0; p < pieces_; ++p) {
            if (left_[p] == 0) continue;
            if (pcnt_[p] < left_[p]) return 0;
            if (left_[p] == 1 && pcnt_[p] < best_piece_n) {
                best_piece_n = pcnt_[p];
                best_piece = p;
            }
        }
        int cell = -1, cell_n = 1 << 30;
        for (int k = 0; k < W && cell_n > 1; ++k) {
            std::uint64_t bits = R.w[k];
            while (bits) {
                const int c = k * 64 + std::countr_zero(bits);
                bits &= bits - 1;
                if (cnt_[c] < cell_n) {
                    cell_n = cnt_[c];
                    cell = c;
                    if (cell_n <= 1) break;
                }
            }
        }
        if (cell_n == 0) return 0;
        const std::uint64_t* live = &live_[static_cast<std::size_t>(depth) * pw_];
        const std::uint64_t* src;
        int lo, hi;
        const int* weight = nullptr;
        if (depth == 0 && root_piece_ >= 0) best_piece = root_piece_, best_piece_n = 0, weight = root_weight_.data();
        if (best_piece >= 0 && best_piece_n < cell_n) {
            src = &piece_words_[static_cast<std::size_t>(best_piece) * pw_];
            lo = 0, hi = pw_;
        } else {
            src = &cover_words_[cover_off_[cell]] - cover_lo_[cell];
            lo = cover_lo_[cell], hi = cover_hi_[cell];
        }
        long long total = 0;
        for (int w = lo; w < hi; ++w) {
            std::uint64_t bits = live[w] & src[w];
            while (bits) {
                const int o = w * 64 + std::countr_zero(bits);
                bits &= bits - 1;
                if (weight) {
                    if (weight[o]) total += weight[o] * child<kCount>(R, depth, o);
                } else {
                    total += child<kCount>(R, depth, o);
                }
                if (done_) return total;
            }
        }
        return total;
    }

    // Places o below the node at `depth`: removes the placements it excludes (updating the
    // counts), searches the child and puts everything back.
    template <bool kCount>
    long long child(const Mask& R, int depth, int o) {
        const Mask next = R - masks_[o];
        if (next.none()) {
            if constexpr (kCount) {
                ++counted_;
                return 1;
            } else {
                path_.push_back(lp_.ids[o]);
                record();
                path_.pop_back();
                return 0;
            }
        }
        const int op = lp_.piece[o];
        --left_[op];
        code_ += step_[op];
        const std::uint64_t tag = code_ + 1;
        long long n = 0;
        if constexpr (kCount) {
            if (const MemoEntry* e = memo_find(next, tag)) {
                n = e->count;
                counted_ += n;
                ++left_[op];
                code_ -= step_[op];
                return n;
            }
        }
        if (!tick()) {
            const std::size_t off = static_cast<std::size_t>(depth) * pw_;
            const std::uint64_t* live = &live_[off];
            std::uint64_t* nl = &live_[off + pw_];
            std::uint64_t* rem = &rem_[off + pw_];
            int lo = pw_, hi = 0;
            for (int i = 0; i < size_[o]; ++i) {
                const int c = cells_[o * kMaxPieceSize + i];
                lo = std::min(lo, cover_lo_[c]);
                hi = std::max(hi, cover_hi_[c]);
            }
            if (left_[op] == 0) {  // its last copy: every other placement of the piece goes too
                const std::uint64_t* ps = &piece_words_[static_cast<std::size_t>(op) * pw_];
                for (int w = 0; w < pw_; ++w) rem[w] = ps[w];
                lo = 0, hi = pw_;
            } else {
                for (int w = lo; w < hi; ++w) rem[w] = 0;
            }
            for (int i = 0; i < size_[o]; ++i) {
                const int c = cells_[o * kMaxPieceSize + i];
                const std::uint64_t* cw = &cover_words_[cover_off_[c]] - cover_lo_[c];
                for (int w = cover_lo_[c]; w < cover_hi_[c]; ++w) rem[w] |= cw[w];
            }
            for (int w = 0; w < pw_; ++w) nl[w] = live[w];
            for (int w = lo; w < hi; ++w) {
                rem[w] &= live[w];
                nl[w] &= ~rem[w];
                std::uint64_t bits = rem[w];
                while (bits) {
                    const int q = w * 64 + std::countr_zero(bits);
                    bits &= bits - 1;
                    const std::int16_t* qc = &cells_[q * kMaxPieceSize];
                    for (int i = 0; i < size_[q]; ++i) --cnt_[qc[i]];
                    --pcnt_[lp_.piece[q]];
                }
            }
            if constexpr (kCount) {
                n = node<true>(next, depth + 1);
                if (!done_) memo_store(next, tag, n);
            } else {
                path_.push_back(lp_.ids[o]);
                node<false>(next, depth + 1);
                path_.pop_back();
            }
            for (int w = lo; w < hi; ++w) {
                std::uint64_t bits = rem[w];
                while (bits) {
                    const int q = w * 64 + std::countr_zero(bits);
                    bits &= bits - 1;
                    const std::int16_t* qc = &cells_[q * kMaxPieceSize];
                    for (int i = 0; i < size_[q]; ++i) ++cnt_[qc[i]];
                    ++pcnt_[lp_.piece[q]];
                }
            }
        }
        ++left_[op];
        code_ -= step_[op];
        return n;
    }

    const MoveTable& t_;
    const LocalPuzzle& lp_;
    const PatternOptions& opt_;
    const std::atomic<bool>* stop_;
    PatternResult& res_;
    const std::vector<std::vector<int>>& syms_;
    int np_ = 0, pw_ = 0, pieces_ = 0;
    std::vector<Mask> masks_;
    std::vector<std::int16_t> cells_;        // local cells of each placement, kMaxPieceSize apart
    std::vector<std::uint8_t> size_;
    std::vector<int> cnt_;                   // options per cell under the current node
    int pcnt_[kNumPieces] = {};              // options per piece
    std::vector<int> cover_lo_, cover_hi_;   // word range of the placements covering a cell
    std::vector<std::size_t> cover_off_;
    std::vector<std::uint64_t> cover_words_, piece_words_;
    std::vector<std::uint64_t> live_, rem_;  // per depth: placements possible, placements removed

    int root_piece_ = -1;
    std::vector<int> root_weight_;
    int left_[kNumPieces] = {};
    std::uint64_t step_[kNumPieces] = {};
    std::uint64_t code_ = 0;
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
            PatternResult& res, const std::vector<std::vector<int>>& syms,
            const std::vector<std::vector<int>>& sym_maps) {
    PatternSearch<W> s(t, lp, o, stop, res, syms);
    if (!sym_maps.empty()) s.use_symmetry(sym_maps);
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
    // Pure counting of a puzzle big enough to pay for it: let the search use the symmetries.
    const bool counting = options.all_solutions && !options.unique && options.max_stored <= 0;
    const auto sym_maps = counting && area >= kSymmetryMinArea ? region_symmetries(geo, cells)
                                                               : std::vector<std::vector<int>>{};
    const int words = (area + 63) / 64;
    if (words <= 1)
        search<1>(t, lp, options, stop, res, syms, sym_maps);
    else if (words <= 2)
        search<2>(t, lp, options, stop, res, syms, sym_maps);
    else if (words <= 4)
        search<4>(t, lp, options, stop, res, syms, sym_maps);
    else
        search<8>(t, lp, options, stop, res, syms, sym_maps);
    return finish();
}

}  // namespace trigon::solver
