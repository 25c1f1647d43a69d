// `generate --concolic` and `reproduce --concolic` (issue 22): the unit's symbolic harness, its fork
// server and the hybrid that runs beside the search.
#pragma once

#include "Session.h"
#include "mosaic/concolic/Hybrid.h"
#include "mosaic/driver/Generate.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace mosaic::driver {

struct ConcolicSide {
  std::optional<harness::Harness> harness;
  std::unique_ptr<exec::ForkServer> server;
  std::unique_ptr<concolic::Hybrid> hybrid;
  std::string why; ///< "off", the selection's name when on, or why it could not start
};

/// Builds and serves the symbolic harness and makes the hybrid; empty with
/// `why` said on `err` when the unit's symbolic harness does not build or
/// start (the search then runs alone).
/// What is wrong with the concolic options (--concolic-selection,
/// --concolic-flips), if anything.
std::optional<std::string> concolicOptionsError(const GenerateOptions &options);

/// `dependences`: the goals are of no side (`reproduce`'s crash line): the
/// hybrid aims at the sides on their way (HybridOptions::dependences).
ConcolicSide concolicSide(const Session &session, const GenerateOptions &options, const exec::Limits &limits,
                          std::ostream &err, bool dependences = false);

/// The report's line and the JSON object of the concolic side's figures.
void printConcolic(const ConcolicSide &side, std::uint64_t executions, std::ostream &out);
nlohmann::json concolicJson(const ConcolicSide &side, std::uint64_t executions);

} // namespace mosaic::driver
