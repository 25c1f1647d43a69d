// The HTML report of `mosaic project`: one folder of static pages that opens
// in a browser without a server (no script, no file from elsewhere).
#pragma once

#include <cstddef>
#include <string>

namespace mosaic::driver {

/// OUT/report/index.html and OUT/report/<id>.html from OUT/project.json
/// (each unit's state and its search's statistics) and the units' sources
/// under the project's folder (project.json's root):
/// - the project page: units ranked by predicted defect risk (Schwa's
///   score) with the budget each got, their status, coverage per criterion
///   (mosaic's goals) and llvm-cov's, and their failures by class;
/// - a page per unit: coverage per criterion, coverage over time (an
///   inline SVG chart), every failure with its class, site, stack and why,
///   the callables a test cannot call and why, every uncovered goal with
///   why (cannot be called; its function never entered; entered, the
///   condition never met), and the source with uncovered lines and
///   branch sides marked.
/// Returns the pages written (0 when project.json cannot be read).
std::size_t writeHtmlReport(const std::string &outDir);

} // namespace mosaic::driver
