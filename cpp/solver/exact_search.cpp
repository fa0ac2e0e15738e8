#include "solver/exact_search.h"

#include <algorithm>
#include <climits>

namespace trigon::solver::exact_detail {

ExactSearch::ExactSearch(const Position& start, std::uint8_t colours, Mode mode, const ExactOptions& o,
                         const std::atomic<bool>* stop)
    : t_(start.table()), geo_(t_.geo()), mode_(mode), opt_(o), stop_(stop), packer_(t_), residuals_(o.residual_capacity) {
    for (int c = 0; c < kNumColours; ++c)
        if ((colours >> c & 1) && start.in_play(c) && start.pieces_left(c)) colours_ |= 1u << c;
    const int n = geo_.num_cells();
    touch_mask_ = touch_masks(geo_);
    edge_nb_.assign(n, {kNoCell, kNoCell, kNoCell});
    for (int c = 0; c < n; ++c) {
        int k = 0;
        for (int x : geo_.edge_neighbours(c)) edge_nb_[c][k++] = static_cast<std::uint16_t>(x);
    }
    for (int p = 0; p < kNumPieces; ++p) {
        size_[p] = trigon_pieces()[p].size;
        if (size_[p] <= 3) small_piece_[size_[p]] = p;
    }
    for (int id = 0; id < t_.num_placements(); ++id) {  // (any placement of a piece has its edges)
        const Placement& pl = t_.placement(id);
        if (cost_[pl.piece]) continue;
        int inside = 0;  // edges inside the piece, each counted from both cells
        for (int i = 0; i < pl.size; ++i)
            for (int x : geo_.edge_neighbours(pl.cells[i])) inside += t_.cells_mask(id).test(x);
        cost_[pl.piece] = 3 * pl.size + (3 * pl.size - inside);
    }
    const int depth = kNumColours * kNumPieces + 2;
    stack_.assign(depth, start);
    excl_.assign(depth, {});
    cover_count_.assign(n, 0);
    wit_.resize(depth);
    for (auto& w : wit_[0]) w.fill(kNone);
    lists_.resize(depth);
    reach_at_.resize(depth);
    narrow_at_.resize(depth);
    fit_at_.resize(depth);
    slack_at_.resize(depth);
    made_.assign(depth, {-1, -1});
    order_at_.resize(depth);
    at_.assign(depth, 0);
    colour_at_.assign(depth, -1);
    t0_ = Clock::now();
}

void ExactSearch::restart(const SplitTask& task) {
    stack_[0] = task.start;
    excl_[0] = task.excl;
    for (auto& w : wit_[0]) w.fill(kNone);
    made_[0] = {-1, -1};
    path_.clear();
    witness_.clear();
    base_path_ = task.path;
    root_parent_ = task.parent;
}

Bitboard ExactSearch::take_part(Bitboard& left, int& n) {
    Bitboard part;
    int stack[kMaxCells], top = 0;
    const int seed = left.first();
    left.reset(seed);
    part.set(seed);
    stack[top++] = seed;
    n = 1;
    while (top) {
        for (const std::uint16_t x : edge_nb_[stack[--top]])
            if (left.test(x)) {  // (kNoCell is never in left)
                left.reset(x);
                part.set(x);
                stack[top++] = x;
                ++n;
            }
    }
    return part;
}

void ExactSearch::drop_small_parts(Bitboard& reach, int smallest, int least_big, Bitboard& narrow) {
    narrow = Bitboard{};
    if (std::max(smallest, least_big) <= 1) return;  // (no part is too small, none narrow)
    Bitboard left = reach;
    while (left.any()) {
        int n;
        const Bitboard part = take_part(left, n);
        if (n < smallest)
            reach -= part;
        else if (n < least_big)
            narrow |= part;
    }
}

void ExactSearch::drop_new_small_parts(Bitboard& reach, const Bitboard& prev, int smallest, int least_big, Bitboard& narrow) {
    narrow &= reach;
    const int limit = std::max(smallest, least_big);  // parts this big are neither dropped nor narrow
    if (limit <= 1) return;
    Bitboard big;  // cells of parts found big enough
    const Bitboard lost = prev - reach;
    lost.for_each([&](int x) {
        for (const std::uint16_t start : edge_nb_[x]) {
            if (!reach.test(start) || big.test(start)) continue;  // (kNoCell is never in reach)
            int walk[kMaxPieceSize], n = 0, next = 0;  // a walk of the part, breadth first
            walk[n++] = start;
            bool enough = false;
            while (next < n && !enough)
                for (const std::uint16_t y : edge_nb_[walk[next++]]) {
                    if (!reach.test(y) || std::find(walk, walk + n, y) != walk + n) continue;
                    if (big.test(y) || n + 1 >= limit) {
                        enough = true;
                        break;
                    }
                    walk[n++] = y;
                }
            for (int i = 0; i < n; ++i) {
                if (enough) {
                    big.set(walk[i]);
                } else if (n < smallest) {
                    reach.reset(walk[i]);
                    narrow.reset(walk[i]);
                } else {
                    narrow.set(walk[i]);
                }
            }
        }
    });
}

Bitboard ExactSearch::reach_crossing(const Position& P, int c, const Bitboard& fr, int area, const Bitboard& narrow, int small) {
    const Bitboard in_narrow = narrow & fr;
    if (in_narrow.none()) return reach_of(P, c, fr, area, touch_mask_);
    Bitboard parts[kMaxNarrowParts];
    int n_parts = 0;
    for (Bitboard rest = in_narrow; rest.any(); ++n_parts) {
        if (n_parts == kMaxNarrowParts) return reach_of(P, c, fr, area, touch_mask_);  // (too many to track)
        int n;
        parts[n_parts] = take_part(rest, n);
    }
    if (n_parts <= small) return reach_of(P, c, fr, area, touch_mask_);  // every one may be crossed
    const Bitboard wide = fr - in_narrow;
    const Bitboard seeds = P.seed_cells(c) & fr;
    // Rounds: the cells chains reach through wide cells, then the narrow parts they touch are
    // crossed (each one of the small pieces) and they go on from there.
    Bitboard got = seeds & wide, ring = got, touched = seeds & in_narrow, crossed;
    std::uint64_t used = 0;  // the narrow parts crossed, as bits
    for (int round = 0;; ++round) {
        while (ring.any()) {
            Bitboard next;
            ring.for_each([&](int x) { next |= touch_mask_[x]; });
            touched |= next & in_narrow;
            ring = (next & wide) - got;
            got |= ring;
        }
        if (round == small) break;
        Bitboard more;
        for (int i = 0; i < n_parts; ++i)
            if (!(used >> i & 1) && parts[i].intersects(touched)) {
                used |= std::uint64_t{1} << i;
                more |= parts[i];
            }
        if (more.none()) break;
        crossed |= more;
        Bitboard next;
        more.for_each([&](int x) { next |= touch_mask_[x]; });
        touched |= next & in_narrow;
        ring = (next & wide) - got;
        got |= ring;
    }
    return got | crossed;
}

bool ExactSearch::bounds_hold(int d, const Position& P, Witnesses& wit, std::array<int, kNumColours>& fit_area, int only) {
    Bitboard all_reach;
    int total = 0;
    auto& reaches = reach_at_[d];
    // The parent node (at a task's root, where the task was split off), if any.
    const bool split_root = d == 0 && root_parent_.has_value();
    const Position* parent = d > 0 ? &stack_[d - 1] : split_root ? &root_parent_->position : nullptr;
    const auto& parent_reach = d > 0 ? reach_at_[d - 1] : split_root ? root_parent_->reach : reach_at_[d];
    const auto& parent_fit = d > 0 ? fit_at_[d - 1] : split_root ? root_parent_->fit : fit_at_[d];
    const auto& parent_slack = d > 0 ? slack_at_[d - 1] : split_root ? root_parent_->slack : slack_at_[d];
    const auto& parent_narrow = d > 0 ? narrow_at_[d - 1] : split_root ? root_parent_->narrow : narrow_at_[d];
    const std::pair<int, int> made = d > 0 ? made_[d] : split_root ? root_parent_->move : std::pair<int, int>{-1, -1};
    for (int c = 0; c < kNumColours; ++c) {
        fit_area[c] = 0;
        const std::uint32_t left = (colours_ >> c & 1) ? P.pieces_left(c) : 0;
        if (!left) {
            reaches[c] = Bitboard{};
            continue;
        }
        const int area = area_of(left);
        const bool keep_own = only >= 0 && c != only;  // a later pass here: its own still hold
        if (keep_own || (parent && only < 0 && c != made.first &&
                         !t_.cells_mask(made.second).intersects(parent_reach[c]))) {
            if (!keep_own) {
                reaches[c] = parent_reach[c];
                narrow_at_[d][c] = parent_narrow[c];
                fit_at_[d][c] = parent_fit[c];
                slack_at_[d][c] = parent_slack[c];
            }
            fit_area[c] = fit_at_[d][c];
            all_reach |= reaches[c];
            total += area;
            continue;
        }
        const Bitboard fr = geo_.all_cells() - P.forbidden(c) - excl_[d][c];
        Bitboard& reach = reaches[c];
        // The reach this one shrinks from (an earlier pass here, else the parent's), if any. Its
        // chains stay inside it: a cell it lacks is one the colour can no longer cover, so no
        // chain of the colour's new cells passes there (its dropped small parts cut chains that
        // ran through them: a 10-left proof 917,217 -> 121,043 nodes).
        const Position* before = only == c ? &P : parent;
        const Bitboard prev = only == c ? reach : parent ? parent_reach[c] : Bitboard{};
        Bitboard& narrow = narrow_at_[d][c];
        const int smallest = smallest_size(left), least_big = least_big_size(left);
        const bool same = before && smallest == smallest_size(before->pieces_left(c)) &&
                          least_big == least_big_size(before->pieces_left(c));
        if (before) {
            // Its narrow parts (too small for its pieces of 4 triangles or more) are narrow here.
            const Bitboard was_narrow = only == c ? narrow : parent_narrow[c];
            reach = least_big ? reach_crossing(P, c, fr & prev, area, was_narrow, small_count(left))
                              : reach_of(P, c, fr & prev, area, touch_mask_);
            narrow = was_narrow;
        } else {
            reach = reach_of(P, c, fr, area, touch_mask_);
        }
        if (same) {
            drop_new_small_parts(reach, prev, smallest, least_big, narrow);
        } else {
            drop_small_parts(reach, smallest, least_big, narrow);
        }
        const int room = reach.count();
        if (mode_ == Mode::AllPlaced && area > room) return false;
        slack_at_[d][c] = room - area;
        all_reach |= reach;
        total += area;
        std::uint32_t fits = 0;  // the pieces that fit inside the reach
        for (std::uint32_t l = left; l; l &= l - 1) {
            const int p = std::countr_zero(l);
            std::uint16_t& w = wit[c][p];
            if (w == kNone || (t_.cells_mask(w) - reach).any()) w = fit_inside(t_, reach, p);
            if (w == kNone) {
                if (mode_ == Mode::AllPlaced) return false;
            } else {
                fit_area[c] += size_[p];
                fits |= l & -l;
            }
        }
        fit_area[c] = std::min(fit_area[c], room);
        if (mode_ == Mode::MaxArea) fit_area[c] = std::min(fit_area[c], edge_bound(fits, edge_capacity(reach)));
    }
    fit_at_[d] = fit_area;
    // MaxArea for several colours: what they can cover together bounds them too (the colours'
    // own bounds ignore one another).
    if (mode_ == Mode::MaxArea && std::popcount(colours_) > 1)
        joint_cover_ = std::min(all_reach.count(), coverable(P, reaches, all_reach));
    return mode_ != Mode::AllPlaced || (total <= all_reach.count() && total <= coverable(P, reaches, all_reach));
}

int ExactSearch::edge_capacity(const Bitboard& room) const {
    int capacity = 0;
    room.for_each([&](int x) {
        capacity += 6;
        for (const std::uint16_t y : edge_nb_[x]) capacity -= room.test(y);  // (each inner edge twice)
    });
    return capacity;
}

int ExactSearch::edge_bound(std::uint32_t fits, int capacity) const {
    int order[kNumPieces], n = 0;
    for (; fits; fits &= fits - 1) order[n++] = std::countr_zero(fits);
    std::sort(order, order + n, [&](int a, int b) { return size_[a] * cost_[b] > size_[b] * cost_[a]; });
    int area = 0;
    for (int i = 0; i < n; ++i) {
        const int p = order[i];
        if (cost_[p] > capacity) return area + size_[p] * capacity / cost_[p];  // (a share of it)
        capacity -= cost_[p];
        area += size_[p];
    }
    return area;
}

int ExactSearch::coverable(const Position& P, const std::array<Bitboard, kNumColours>& reaches, const Bitboard& all_reach) {
    int bound = 0;
    int small_cover[4] = {};    // per part size 1..3: the parts' best covers added up
    int singles[16] = {};       // 1-cell parts, by the colours whose triangle can cover them
    std::uint32_t have[4] = {};  // per size 1..3: the colours that still have that piece
    int mid_all = 0, mid_big = 0, mid_five = 0, mid_six = 0, mid_area = 0, mid_four = 0;
    for (int c = 0; c < kNumColours; ++c)
        if (reaches[c].any()) {
            for (int s = 1; s <= 3; ++s)
                if (P.pieces_left(c) >> small_piece_[s] & 1) have[s] |= 1u << c;
            for (std::uint32_t l = P.pieces_left(c); l; l &= l - 1)
                if (const int s = size_[std::countr_zero(l)]; s == 4 || s == 5) {
                    mid_area += s;
                    if (s == 4) mid_four += s;
                }
        }
    Bitboard left = all_reach;
    while (left.any()) {
        int n;
        const Bitboard part = take_part(left, n);
        if (n > kSmallPart) {
            bound += n;
            continue;
        }
        if (n == 1) {
            const int x = part.first();
            std::uint32_t m = 0;
            for (std::uint32_t h = have[1]; h; h &= h - 1)
                if (reaches[std::countr_zero(h)].test(x)) m |= h & -h;
            if (m) {
                ++singles[m];
                ++small_cover[1];
            }
            continue;
        }
        const PartCovers pc = packer_.covers(P, part, n, reaches);
        if (n <= 3) {
            small_cover[n] += pc.all;
            continue;
        }
        mid_all += pc.all;
        mid_big += pc.big;
        mid_five += pc.five;
        mid_six += pc.six;
    }
    // 1-cell parts covered: a largest matching of parts to triangles (Koenig: a smallest
    // vertex cover, some triangles plus the parts reaching a triangle outside them).
    int matched = INT_MAX;
    for (std::uint32_t t = have[1];; t = (t - 1) & have[1]) {
        int cover = std::popcount(t);
        for (std::uint32_t m = 1; m < 16; ++m)
            if (m & ~t) cover += singles[m];
        matched = std::min(matched, cover);
        if (!t) break;
    }
    const int n1 = std::popcount(have[1]), n2 = std::popcount(have[2]), n3 = std::popcount(have[3]);
    const int x1 = std::min(small_cover[1], matched);
    const int x12 = std::min(x1 + small_cover[2], n1 + 2 * n2);
    // The parts of 4 to kSmallPart cells: their best packings; or with pieces of 4 or more
    // triangles at most mid_big, the rest by pieces of 1 to 3; or with pieces of 5 or 6 at most
    // mid_five, the rest by pieces of 4 (mid_four of them left) and 1 to 3; or with hexiamonds at
    // most mid_six, the rest by pieces of 4 or 5 triangles (mid_area) and 1 to 3.
    const int small_parts = x12 + small_cover[3];
    return bound + std::min(small_parts + mid_all,
                            std::min({mid_big, mid_five + mid_four, mid_six + mid_area}) + std::min(small_parts + mid_all, n1 + 2 * n2 + 3 * n3));
}

void ExactSearch::hand_over(int d) {
    for (int j = 0; j <= d; ++j) {
        auto& order = order_at_[j];
        if (at_[j] + 1 >= order.size()) continue;
        std::vector<SplitTask> tasks;
        std::vector<std::pair<int, int>> path = base_path_;
        path.insert(path.end(), path_.begin(), path_.begin() + j);
        for (std::size_t k = at_[j] + 1; k < order.size(); ++k) {
            const std::pair<int, int> move{colour_at_[j], order[k].second};
            SplitTask t{stack_[j], excl_[j], path, SplitParent{stack_[j], reach_at_[j], narrow_at_[j], fit_at_[j], slack_at_[j], move}};
            t.start.place(move.first, move.second);
            t.path.push_back(move);
            tasks.push_back(std::move(t));
        }
        order.resize(at_[j] + 1);
        pool_->give(std::move(tasks));
        return;
    }
}

void ExactSearch::update_lists(int d) {
    const Position& P = stack_[d];
    auto& lists = lists_[d];
    for (int c = 0; c < kNumColours; ++c) {
        auto& out = lists[c];
        out.clear();
        if (!(colours_ >> c & 1) || !P.pieces_left(c)) continue;
        const Bitboard& excl = excl_[d][c];
        if (d == 0 || !stack_[d - 1].started(c)) {  // (a first move also moves others' start cells)
            P.generate(c, ml_);
            for (auto id : ml_)
                if (!t_.cells_mask(id).intersects(excl)) out.push_back(id);
            continue;
        }
        for (auto id : lists_[d - 1][c])
            if (P.still_legal(c, id)) out.push_back(id);
        if (c == made_[d].first) {
            const int n = P.generate_at(c, P.attach_points(c) - stack_[d - 1].attach_points(c), ml_.moves.data());
            for (int k = 0; k < n; ++k)
                if (!t_.cells_mask(ml_.moves[k]).intersects(excl)) out.push_back(ml_.moves[k]);
        }
    }
}

Key128 ExactSearch::residual_key(int d) const {
    const Position& P = stack_[d];
    Key128 k{0x6A09E667F3BCC909ull, 0xBB67AE8584CAA73Bull};
    auto mix = [&](std::uint64_t x) {
        k.a = (k.a ^ x) * 0x9E3779B97F4A7C15ull;
        k.a ^= k.a >> 29;
        k.b = (k.b + x) * 0xD6E8FEB86659FD93ull;
        k.b ^= k.b >> 32;
    };
    for (int c = 0; c < kNumColours; ++c) {
        if (!(colours_ >> c & 1) || !P.pieces_left(c)) continue;
        const Bitboard room = reach_at_[d][c] - P.forbidden(c) - excl_[d][c];
        const Bitboard seeds = P.seed_cells(c) & room;
        mix(static_cast<std::uint64_t>(c) << 32 | P.pieces_left(c));
        for (int w = 0; w < Bitboard::kWords; ++w) {
            mix(room.w[w]);
            mix(seeds.w[w]);
        }
        if (P.rules().alternate)  // where its pieces touch decides which sides may meet a vertex
            for (const std::uint64_t w : P.touched_vertices(c).w) mix(w);
    }
    return k;
}

bool ExactSearch::out_of_budget() {
    if ((++nodes_ & 255) == 0) {
        const long long all = shared_nodes_ ? shared_nodes_->fetch_add(256) + 256 : nodes_;
        if (opt_.progress) opt_.progress->fetch_add(256, std::memory_order_relaxed);
        if ((stop_ && stop_->load()) || (halt_ && halt_->load()) || (opt_.node_limit > 0 && all > opt_.node_limit) ||
            (opt_.time_limit > 0 && std::chrono::duration<double>(Clock::now() - t0_).count() > opt_.time_limit))
            aborted_ = true;
        if (!aborted_ && interlude_ && nodes_ >= next_interlude_) {
            next_interlude_ *= 2;
            aborted_ = interlude_();
        }
    } else if (!shared_nodes_ && opt_.node_limit > 0 && nodes_ > opt_.node_limit) {
        aborted_ = true;
    }
    return aborted_;
}

bool ExactSearch::dfs_cells(int d) {
    const Position& P = stack_[d];
    std::array<int, kNumColours> fit{};
    for (int grown = -1;; ) {  // grown: the colour whose excluded cells grew since the last pass
        if (out_of_budget()) return true;
        if (!bounds_hold(d, P, wit_[d], fit, grown)) return false;
        if (mode_ == Mode::MaxArea) {
            if (grown < 0 && placed_ > best_area_) {
                best_area_ = placed_;
                take_witness();
            }
            int more = 0;
            for (int c = 0; c < kNumColours; ++c) more += fit[c];
            if (std::popcount(colours_) > 1) more = std::min(more, joint_cover_);
            if (placed_ + more <= best_area_) return false;
        }
        // A residual problem met before has no layout: its search ended "no" (or handed moves
        // over to other threads, which search them), else this search would be over. (MaxArea:
        // its layouts were searched already, from the same area placed.)
        if (opt_.transpositions && !residuals_.insert(residual_key(d))) return false;
        if (grown < 0) update_lists(d);
        int colour = -1, cell = -1, fewest = INT_MAX;
        // The next colour: fewest legal moves, or least slack first (ties: fewest moves).
        std::pair<long long, std::size_t> least{LLONG_MAX, SIZE_MAX};
        bool stuck = false;  // MaxArea: a colour with pieces left and no move (the others go on)
        for (int c = 0; c < kNumColours; ++c) {
            if (!(colours_ >> c & 1) || !P.pieces_left(c)) continue;
            const auto& list = lists_[d][c];
            if (list.empty()) {
                if (mode_ == Mode::AllPlaced) return false;
                stuck = true;
                continue;
            }
            const std::pair<long long, std::size_t> key{opt_.least_slack ? slack_at_[d][c] : 0, list.size()};
            if (key < least) {
                least = key;
                colour = c;
            }
        }
        if (colour < 0) {  // every colour has placed everything (MaxArea: or can place no more)
            if (stuck) return false;
            take_witness();
            return true;
        }
        // Of the next colour's open cells, the one fewest of its moves cover.
        const Bitboard open = P.seed_cells(colour) - excl_[d][colour];
        for (auto id : lists_[d][colour]) (t_.cells_mask(id) & open).for_each([&](int x) { ++cover_count_[x]; });
        open.for_each([&](int x) {
            const int k = cover_count_[x];
            cover_count_[x] = 0;
            if (k == 0) {
                excl_[d][colour].set(x);  // no move covers it now, so none ever will: sharpens the reach
            } else if (k < fewest) {
                fewest = k;
                cell = x;
            }
        });
        // Big pieces first, then the snuggest. (cell < 0 cannot happen: every legal move covers
        // an open cell; were it so, all the colour's moves are tried and nothing is excluded.)
        const Bitboard empty = geo_.all_cells() - P.occupied_all();
        auto& order = order_at_[d];
        order.clear();
        for (auto id : lists_[d][colour])
            if (cell < 0 || t_.cells_mask(id).test(cell))
                order.push_back({-100 * t_.placement(id).size + (t_.adj_mask(id) & empty).count(), id});
        std::sort(order.begin(), order.end());
        colour_at_[d] = colour;
        for (std::size_t k = 0; k < order.size(); ++k) {  // (order shrinks when moves are handed over)
            at_[d] = k;
            if (pool_ && pool_->hungry()) hand_over(d);
            const int id = order[k].second;
            stack_[d + 1] = P;
            stack_[d + 1].place(colour, id);
            excl_[d + 1] = excl_[d];
            wit_[d + 1] = wit_[d];
            path_.push_back({colour, id});
            made_[d + 1] = {colour, id};
            placed_ += t_.placement(id).size;
            const bool end = dfs_cells(d + 1);
            placed_ -= t_.placement(id).size;
            path_.pop_back();
            if (end) return true;
        }
        if (cell < 0) return false;
        // Then the layouts in which this colour leaves the cell alone, at this same node.
        excl_[d][colour].set(cell);
        auto& list = lists_[d][colour];
        list.erase(std::remove_if(list.begin(), list.end(), [&](std::uint16_t id) { return t_.cells_mask(id).test(cell); }),
                   list.end());
        grown = colour;
    }
}

}  // namespace trigon::solver::exact_detail
