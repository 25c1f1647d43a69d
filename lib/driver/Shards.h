// Sharding a project's units across machines: which part this process
// runs (a flag, or the index a cluster engine gives each task), and a
// deterministic split of the units with balanced budgets.
#pragma once

#include "mosaic/support/Expected.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::driver {

struct Shard {
  std::size_t index = 0, count = 1; ///< 0 <= index < count
};

/// This process's shard: `flag` ("I/N", I from 0) when given; otherwise
/// from `env`: a Slurm job array's SLURM_ARRAY_TASK_ID (less
/// SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT tasks, or a Kubernetes
/// Indexed Job's JOB_COMPLETION_INDEX of MOSAIC_SHARDS (Kubernetes does not
/// tell a pod how many there are: the manifest sets it). Nothing when none
/// says; a Usage error for a malformed or out-of-range value.
Expected<std::optional<Shard>> shardOf(const std::string &flag, const std::map<std::string, std::string> &env);

/// The shard of each unit: the largest budget first, each to the shard
/// with the least so far (ties: the lower index); units of equal budget in
/// the order of `names`. The same budgets and names give the same split on
/// every machine, and no shard's total exceeds another's by more than the
/// largest budget.
std::vector<std::size_t> assignShards(const std::vector<double> &budgets, const std::vector<std::string> &names,
                                      std::size_t count);

} // namespace mosaic::driver
