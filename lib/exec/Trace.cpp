// Reading the trace.
#include "mosaic/exec/Trace.h"

#include <algorithm>
#include <cstring>

namespace mosaic::exec {

namespace {
template <class T> const T *at(const mosaic_trace_header *h, std::uint32_t offset) { // offset: the host's layout
  return reinterpret_cast<const T *>(reinterpret_cast<const char *>(h) + offset);
}
} // namespace

std::span<const std::uint8_t> Trace::blocks() const {
  return {at<std::uint8_t>(h_, layout_.blocks_off), std::min(h_->unit_blocks, layout_.block_capacity)};
}
std::span<const double> Trace::sides() const {
  return {at<double>(h_, layout_.sides_off), std::min(h_->unit_sides, layout_.side_capacity)};
}

std::span<const double> Trace::mutants() const {
  return {at<double>(h_, layout_.mutants_off), std::min(h_->unit_mutants, layout_.mutant_capacity)};
}
std::span<const double> Trace::mutantArea() const { return {at<double>(h_, layout_.mutants_off), layout_.mutant_capacity}; }
std::span<const std::uint8_t> Trace::direct() const {
  return {at<std::uint8_t>(h_, layout_.direct_off), std::min(h_->unit_blocks, layout_.block_capacity)};
}
std::span<const double> Trace::directSides() const {
  return {at<double>(h_, layout_.direct_sides_off), std::min(h_->unit_sides, layout_.side_capacity)};
}
std::span<const mosaic_cmp_entry> Trace::comparisons() const {
  return {at<mosaic_cmp_entry>(h_, layout_.cmps_off), std::min(h_->cmp_count, MOSAIC_CMP_CAPACITY)};
}
std::span<const mosaic_str_entry> Trace::strings() const {
  return {at<mosaic_str_entry>(h_, layout_.strs_off), std::min(h_->str_count, MOSAIC_STR_CAPACITY)};
}
std::span<const mosaic_stmt_record> Trace::statements() const {
  return {at<mosaic_stmt_record>(h_, layout_.stmts_off), std::min(h_->stmt_count, MOSAIC_STMT_CAPACITY)};
}
std::string_view Trace::output() const {
  return {at<char>(h_, layout_.output_off), std::min(h_->output_len, MOSAIC_OUTPUT_BYTES)};
}

std::vector<Observation> Trace::observations() const {
  std::vector<Observation> out;
  const char *base = at<char>(h_, layout_.obs_off);
  const std::uint32_t len = std::min(h_->obs_len, MOSAIC_OBS_BYTES);
  std::uint32_t off = 0;
  while (off + sizeof(mosaic_obs_header) <= len) {
    mosaic_obs_header hdr;
    std::memcpy(&hdr, base + off, sizeof hdr);
    off += sizeof hdr;
    if (off + hdr.len > len) break;
    Observation o;
    o.statement = hdr.stmt;
    o.kind = static_cast<mosaic_obs_kind>(hdr.kind);
    o.target = hdr.target;
    o.field = hdr.field;
    if (o.kind == MOSAIC_OBS_FLOAT && hdr.len == sizeof(double)) std::memcpy(&o.floating, base + off, sizeof(double));
    else if ((o.kind == MOSAIC_OBS_STRING || o.kind == MOSAIC_OBS_EXCEPTION)) o.bytes.assign(base + off, hdr.len);
    else if (hdr.len == sizeof(std::int64_t)) std::memcpy(&o.integer, base + off, sizeof(std::int64_t));
    out.push_back(std::move(o));
    off += hdr.len;
  }
  return out;
}

} // namespace mosaic::exec
