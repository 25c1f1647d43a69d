// generate's --function-weights: function-level defect prediction steering
// which of the unit's functions the search calls most (issue 23; the BADS
// seed allocates budget across units, this weights a unit's functions).
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/predict/History.h"
#include "mosaic/support/Expected.h"

#include <map>
#include <string>
#include <vector>

namespace mosaic::driver {

/// The unit's functions defined in its own file, as the front end saw them
/// (those it skips for tests are functions all the same), by name or
/// qualified name, in line order: what defect prediction scores at function
/// level (`mosaic predict`, `mosaic project`).
std::vector<predict::FunctionSpan> functionSpans(const model::Program &program);

/// The file: a JSON object of function names (or qualified names) to
/// scores >= 0. Errors: Input naming the file and what is wrong.
Expected<std::map<std::string, double>> readFunctionWeights(const std::string &path);

/// Per callable of `program` (by CallableId): 1 + its function's score /
/// the highest score, so the riskiest function is called twice as often as
/// one without a score (ours: a bounded bias, no function starves); 1 for
/// a callable the scores do not name. Empty when they name none (uniform).
std::vector<double> targetWeights(const model::Program &program, const std::map<std::string, double> &scores);

} // namespace mosaic::driver
