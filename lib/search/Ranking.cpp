// Preference sorting, non-dominated sorting, crowding and selection.
#include "mosaic/search/Ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mosaic::search {

namespace {
// Every goal's flag "known constant" false, for rows of values of all goals.
std::vector<bool> noneKnown(const std::vector<std::vector<double>> &rows) {
  return std::vector<bool>(rows.empty() ? 0 : rows[0].size(), false);
}

// The rows' values column by column (rows hold the stored goals only).
std::vector<double> transpose(const std::vector<std::vector<double>> &rows) {
  const size_t n = rows.size(), stored = rows.empty() ? 0 : rows[0].size();
  std::vector<double> out(n * stored);
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < stored; ++c) out[c * n + i] = rows[i][c];
  return out;
}
} // namespace

FitnessMatrix::FitnessMatrix(const std::vector<std::vector<double>> &rows) : FitnessMatrix(rows, noneKnown(rows)) {}

FitnessMatrix::FitnessMatrix(const std::vector<std::vector<double>> &rows, std::vector<bool> known)
    : FitnessMatrix(rows.size(), std::move(known), transpose(rows)) {}

FitnessMatrix::FitnessMatrix(size_t individuals, std::vector<bool> known, std::vector<double> columns)
    : n_(individuals), goals_(known.size()), byGoal_(std::move(columns)), constant_(std::move(known)) {
  stored_.assign(goals_, kNone);
  for (size_t g = 0; g < goals_; ++g)
    if (!constant_[g]) stored_[g] = storedCount_++;
  for (size_t g = 0; g < goals_; ++g)
    if (const double *c = column(g)) constant_[g] = std::all_of(c, c + n_, [&](double v) { return v == c[0]; });
}

std::vector<double> FitnessMatrix::row(size_t individual) const {
  std::vector<double> out(storedCount_);
  for (size_t c = 0; c < storedCount_; ++c) out[c] = byGoal_[c * n_ + individual];
  return out;
}

bool dominates(std::span<const double> a, std::span<const double> b) {
  bool better = false;
  for (size_t g = 0; g < a.size(); ++g) {
    if (a[g] > b[g]) return false;
    if (a[g] < b[g]) better = true;
  }
  return better;
}

std::vector<std::vector<size_t>> preferenceSort(const FitnessMatrix &f, const TieBreak &tieBreak, size_t population,
                                                Rng &rng, bool sameForEveryGoal) {
  const size_t n = f.size();
  std::vector<std::vector<size_t>> fronts;
  if (n == 0) return fronts;
  const size_t goals = f.goals();
  std::vector<bool> inFirst(n, false);
  std::vector<size_t> first;
  // With a tie-break blind to the goal: each individual's place in its
  // order (equal places tie), asked once. A goal's scan settles its ties
  // by the places and a coin flip where they are equal, as asking it would.
  std::vector<size_t> place;
  if (sameForEveryGoal) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const int t = tieBreak(0, a, b);
      return t != 0 ? t < 0 : a < b;
    });
    place.assign(n, 0);
    for (size_t k = 1; k < n; ++k)
      place[order[k]] = place[order[k - 1]] + (tieBreak(0, order[k - 1], order[k]) < 0 ? 1 : 0);
  }
  const auto tie = [&](size_t g, size_t a, size_t b) {
    if (!sameForEveryGoal) return tieBreak(g, a, b);
    return place[a] < place[b] ? -1 : place[a] > place[b] ? 1 : 0;
  };
  // On a constant column: the individuals at the first place, in order.
  // The scan of a column picks the first of them, then each later one by a
  // coin flip; so does a walk over this list.
  std::vector<size_t> preferred;
  for (size_t g = 0; g < goals; ++g) {
    const double *column = f.column(g); // null: declared constant, every individual ties
    size_t best = 0;
    if (sameForEveryGoal && f.constant(g)) {
      if (preferred.empty())
        for (size_t i = 0; i < n; ++i)
          if (place[i] == 0) preferred.push_back(i);
      best = preferred.front();
      for (size_t k = 1; k < preferred.size(); ++k)
        if (rng.chance(0.5)) best = preferred[k];
    } else {
      for (size_t i = 1; i < n; ++i) {
        if (column && column[i] < column[best]) {
          best = i;
          continue;
        }
        if (column && column[i] != column[best]) continue;
        const int t = tie(g, i, best);
        if (t < 0 || (t == 0 && rng.chance(0.5))) best = i;
      }
    }
    if (!inFirst[best]) {
      inFirst[best] = true;
      first.push_back(best);
    }
  }
  std::sort(first.begin(), first.end());
  fronts.push_back(first);
  std::vector<size_t> rest;
  for (size_t i = 0; i < n; ++i)
    if (!inFirst[i]) rest.push_back(i);
  if (rest.empty()) return fronts;
  if (first.size() >= population) {
    fronts.push_back(rest);
    return fronts;
  }
  for (auto &front : nonDominatedSort(f, rest, population - first.size())) fronts.push_back(std::move(front));
  return fronts;
}

std::vector<std::vector<size_t>> nonDominatedSort(const FitnessMatrix &f, const std::vector<size_t> &members,
                                                  size_t enough) {
  const size_t m = members.size();
  // The members' rows, contiguous: dominance reads a pair's values goal
  // after goal.
  const size_t width = f.stored();
  std::vector<double> rows(m * width);
  for (size_t c = 0, g = 0; g < f.goals(); ++g)
    if (const double *column = f.column(g)) {
      for (size_t a = 0; a < m; ++a) rows[a * width + c] = column[members[a]];
      ++c;
    }
  const auto row = [&](size_t a) { return std::span<const double>(rows.data() + a * width, width); };
  std::vector<std::vector<size_t>> dominated(m); // indices into members
  std::vector<size_t> count(m, 0);
  for (size_t a = 0; a < m; ++a)
    for (size_t b = a + 1; b < m; ++b) {
      if (dominates(row(a), row(b))) {
        dominated[a].push_back(b);
        ++count[b];
      } else if (dominates(row(b), row(a))) {
        dominated[b].push_back(a);
        ++count[a];
      }
    }
  std::vector<std::vector<size_t>> fronts;
  std::vector<bool> ranked(m, false);
  std::vector<size_t> current;
  for (size_t a = 0; a < m; ++a)
    if (count[a] == 0) current.push_back(a);
  size_t done = 0;
  while (!current.empty()) {
    std::vector<size_t> front, next;
    for (size_t a : current) {
      front.push_back(members[a]);
      ranked[a] = true;
      for (size_t b : dominated[a])
        if (--count[b] == 0) next.push_back(b);
    }
    done += front.size();
    fronts.push_back(std::move(front));
    if (done >= enough) break;
    current = std::move(next);
  }
  std::vector<size_t> last;
  for (size_t a = 0; a < m; ++a)
    if (!ranked[a]) last.push_back(members[a]);
  if (!last.empty()) fronts.push_back(std::move(last));
  return fronts;
}

std::vector<double> crowdingDistance(const FitnessMatrix &f, const std::vector<size_t> &front) {
  std::vector<double> d(front.size(), 0.0);
  if (front.empty()) return d;
  for (size_t g = 0; g < f.goals(); ++g) {
    if (f.constant(g)) continue;
    const double *column = f.column(g);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    size_t atMin = 0; // of the front's members at `lo`, counted as it falls
    for (size_t i : front) {
      const double v = column[i];
      if (v < lo) lo = v, atMin = 0;
      atMin += v == lo;
      hi = std::max(hi, v);
    }
    if (lo == hi) continue;
    const double value = static_cast<double>(front.size() - atMin) / static_cast<double>(front.size());
    for (size_t k = 0; k < front.size(); ++k)
      if (column[front[k]] == lo) d[k] = std::max(d[k], value);
  }
  return d;
}

size_t tournament(const std::vector<size_t> &ranks, const std::vector<double> &crowding, size_t size, Rng &rng) {
  size_t winner = rng.index(ranks.size());
  for (size_t round = 1; round < size; ++round) {
    const size_t other = rng.index(ranks.size());
    if (ranks[other] < ranks[winner] || (ranks[other] == ranks[winner] && crowding[other] > crowding[winner]))
      winner = other;
  }
  return winner;
}

size_t rankSelection(size_t n, double b, Rng &rng) {
  const double r = rng.uniform01();
  const double x = static_cast<double>(n) * (b - std::sqrt(b * b - 4.0 * (b - 1.0) * r)) / (2.0 * (b - 1.0));
  return std::min(n - 1, static_cast<size_t>(std::floor(x)));
}

} // namespace mosaic::search
