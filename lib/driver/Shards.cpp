// Shards of a project (Shards.h).
#include "Shards.h"

#include <algorithm>
#include <charconv>
#include <numeric>

namespace mosaic::driver {

namespace {

std::optional<std::size_t> number(const std::string &s) {
  std::size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

Expected<std::optional<Shard>> checked(std::optional<std::size_t> index, std::optional<std::size_t> count,
                                       const std::string &what) {
  if (!index || !count || *count == 0 || *index >= *count)
    return Error::usage(what + ": a shard is I/N with 0 <= I < N");
  return std::optional<Shard>(Shard{*index, *count});
}

} // namespace

Expected<std::optional<Shard>> shardOf(const std::string &flag, const std::map<std::string, std::string> &env) {
  auto get = [&](const char *name) -> std::optional<std::string> {
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  if (!flag.empty()) {
    const size_t slash = flag.find('/');
    if (slash == std::string::npos) return Error::usage("--shard '" + flag + "': a shard is I/N with 0 <= I < N");
    return checked(number(flag.substr(0, slash)), number(flag.substr(slash + 1)), "--shard '" + flag + "'");
  }
  if (const auto id = get("SLURM_ARRAY_TASK_ID"), count = get("SLURM_ARRAY_TASK_COUNT"); id && count) {
    auto index = number(*id);
    const auto min = number(get("SLURM_ARRAY_TASK_MIN").value_or("0"));
    if (index && min && *index >= *min) *index -= *min;
    return checked(index, number(*count), "SLURM_ARRAY_TASK_ID " + *id + " of SLURM_ARRAY_TASK_COUNT " + *count);
  }
  if (const auto id = get("JOB_COMPLETION_INDEX")) {
    const auto count = get("MOSAIC_SHARDS");
    if (!count) return Error::usage("JOB_COMPLETION_INDEX is set but MOSAIC_SHARDS (the job's completions) is not");
    return checked(number(*id), number(*count), "JOB_COMPLETION_INDEX " + *id + " of MOSAIC_SHARDS " + *count);
  }
  return std::optional<Shard>();
}

std::vector<std::size_t> assignShards(const std::vector<double> &budgets, const std::vector<std::string> &names,
                                      std::size_t count) {
  std::vector<std::size_t> order(budgets.size()), out(budgets.size(), 0);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return budgets[a] != budgets[b] ? budgets[a] > budgets[b] : names[a] < names[b];
  });
  std::vector<double> load(std::max<std::size_t>(count, 1), 0.0);
  for (std::size_t u : order) {
    const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    out[u] = least;
    load[least] += budgets[u];
  }
  return out;
}

} // namespace mosaic::driver
