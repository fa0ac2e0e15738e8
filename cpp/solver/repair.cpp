#include "solver/repair.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/random.h"
#include "solver/exact_search.h"
#include "solver/reach.h"

namespace trigon::solver {

namespace {

using exact_detail::Clock;

constexpr int kLeastTakenOut = 12;  // a neighbourhood's triangles taken out: at least this many
constexpr int kMoreTakenOut = 30;   // and up to this many more, at random

}  // namespace

int layout_triangles(const Position& P, const std::vector<std::pair<int, int>>& layout) {
    int a = 0;
    for (auto [c, id] : layout) a += P.table().placement(id).size;
    return a;
}

void play_when_legal(Position& P, const std::vector<std::pair<int, int>>& moves, std::vector<char>& taken,
                     std::vector<std::pair<int, int>>& played, int held) {
    for (bool more = true; more;) {
        more = false;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const auto [c, id] = moves[i];
            if (taken[i] || P.table().placement(id).piece == held || !P.is_legal(c, id)) continue;
            P.place(c, id);
            played.push_back(moves[i]);
            taken[i] = 1;
            more = true;
        }
    }
}

std::vector<std::pair<int, int>> extend_layout(const Position& start, std::uint8_t colours,
                                               const std::vector<std::pair<int, int>>& layout, int tries,
                                               std::uint64_t seed) {
    const MoveTable& t = start.table();
    Position base = start;
    for (auto [c, id] : layout) base.place(c, id);
    auto ml = std::make_unique<MoveList>();
    Rng rng(seed);
    std::vector<std::pair<int, int>> best = layout, cur;
    int best_gain = 0;
    for (int k = 0; k < tries; ++k) {
        Position P = base;
        cur.clear();
        int gain = 0;
        for (bool more = true; more;) {
            more = false;
            for (int c = 0; c < kNumColours; ++c) {
                if (!(colours >> c & 1) || !P.in_play(c) || !P.pieces_left(c)) continue;
                const Bitboard own_free = t.geo().all_cells() - P.occupied_all() - P.forbidden(c);
                P.generate(c, *ml);
                int pick = -1, best_score = 0;
                for (auto id : *ml) {
                    const int lost = (t.adj_mask(id) & own_free).count();
                    const int noise = k ? static_cast<int>(rng.below(4)) : 0;
                    const int score = 64 * t.placement(id).size - 2 * lost + noise;
                    if (pick < 0 || score > best_score) {
                        pick = id;
                        best_score = score;
                    }
                }
                if (pick < 0) continue;
                P.place(c, pick);
                cur.push_back({c, pick});
                gain += t.placement(pick).size;
                more = true;
            }
        }
        if (gain > best_gain) {
            best_gain = gain;
            best = layout;
            best.insert(best.end(), cur.begin(), cur.end());
        }
    }
    return best;
}

RepairResult repair_layout(const Position& start, std::uint8_t colours, const std::vector<std::pair<int, int>>& layout,
                           const RepairBudget& budget, std::uint64_t seed, const std::atomic<bool>* stop,
                           const std::atomic<bool>* halt) {
    RepairResult out;
    const auto t0 = Clock::now();
    const MoveTable& t = start.table();
    const Geometry& geo = t.geo();
    std::vector<std::pair<int, int>> current = layout;  // accept: the layout the steps go on from
    int current_area = 0;
    Bitboard holes;  // the cells it leaves empty: where the pieces it could not place would have to go
    auto take_stock = [&] {
        Bitboard placed_cells;
        for (auto [c, id] : current) placed_cells |= t.cells_mask(id);
        holes = geo.all_cells() - start.occupied_all() - placed_cells;
        current_area = layout_triangles(start, current);
    };
    take_stock();
    const int given_area = current_area;
    if (holes.none()) return out;
    const std::vector<Bitboard> touch = touch_masks(geo);
    Rng rng(seed);
    std::vector<char> taken;
    // One exhaustive search, reset for each neighbourhood (o's limits are set before each).
    ExactOptions o;
    o.colours = colours;
    o.heuristic = false;
    o.progress = budget.progress;
    using exact_detail::ExactSearch;
    ExactSearch search(start, colours, ExactSearch::Mode::AllPlaced, o, stop);
    search.join_pool(nullptr, halt, nullptr);
    ExactOptions ao = o;  // the branch and bound of accept
    std::unique_ptr<ExactSearch> grow;
    if (budget.accept) {
        grow = std::make_unique<ExactSearch>(start, colours, ExactSearch::Mode::MaxArea, ao, stop);
        grow->join_pool(nullptr, halt, nullptr);
    }
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    auto spent = [&] {
        return (budget.seconds > 0 && elapsed() >= budget.seconds) || (budget.nodes > 0 && out.nodes >= budget.nodes) ||
               (budget.seconds <= 0 && budget.nodes <= 0);
    };
    auto limit_nodes = [&](long long step) { return budget.nodes > 0 ? std::min(step, budget.nodes - out.nodes) : step; };
    while (!spent() && !(stop && stop->load()) && !(halt && halt->load())) {
        ++out.steps;
        // Take out the moves nearest a hole, ring by ring, until enough triangles are out.
        const int target = kLeastTakenOut + static_cast<int>(rng.below(kMoreTakenOut + 1));
        taken.assign(current.size(), 0);
        Bitboard zone;
        zone.set(holes.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(holes.count())))));
        for (int area = 0; area < target;) {
            for (std::size_t i = 0; i < current.size(); ++i)
                if (!taken[i] && t.cells_mask(current[i].second).intersects(zone)) {
                    taken[i] = 1;
                    area += t.placement(current[i].second).size;
                }
            Bitboard grown = zone;
            zone.for_each([&](int x) { grown |= touch[x]; });
            if (grown == zone) break;
            zone = grown;
        }
        // The moves kept, replayed: a kept move whose link to its colour went out goes out too.
        Position P = start;
        std::vector<std::pair<int, int>> kept;
        play_when_legal(P, current, taken, kept);
        o.node_limit = limit_nodes(budget.step_nodes);
        o.time_limit = budget.seconds > 0 ? std::max(0.001, budget.seconds - elapsed()) : 0.0;
        search.reset(P);
        const bool found = search.run();
        out.nodes += search.nodes();
        if (found && !search.aborted()) {
            out.found = true;
            out.witness = std::move(kept);
            for (const auto& m : search.witness()) out.witness.push_back(m);
            return out;
        }
        if (!grow || spent()) continue;
        // No complete layout here: one placing no fewer triangles than those taken out (and those
        // that went with them) will do to go on from, another basin at the same height or higher.
        const int kept_area = layout_triangles(start, kept);
        ao.node_limit = limit_nodes(budget.accept_nodes);
        ao.time_limit = o.time_limit;
        grow->reset(P);
        grow->set_best(current_area - kept_area - 1, {});
        const bool all_placed = grow->run() && !grow->aborted();  // (where the search above ran out of nodes)
        out.nodes += grow->nodes();
        if (grow->witness().empty() || kept_area + grow->best_area() < current_area) continue;
        current = std::move(kept);
        for (const auto& m : grow->witness()) current.push_back(m);
        if (all_placed) {
            out.found = true;
            out.witness = current;
            return out;
        }
        take_stock();
        if (holes.none()) break;  // (a board the pieces outnumber can fill up: no hole to repair at)
    }
    if (current_area > given_area) {
        out.improved = current;
        out.improved_area = current_area;
    }
    return out;
}

}  // namespace trigon::solver
