#include "comparison.hpp"

#include <fmt/format.h>

namespace lockcheck::reports {

std::string anchor_of(const std::string& variant, const std::string& family, std::uint64_t seed) {
  return fmt::format("cx-{}--{}--seed{}", variant, family, seed);
}

const Cell* find_cell(const Comparison& comparison, const std::string& variant, const std::string& family) {
  for (const Cell& cell : comparison.cells) {
    if (cell.variant == variant && cell.family == family) return &cell;
  }
  return nullptr;
}

const Workload* find_workload(const Comparison& comparison, const std::string& variant) {
  for (const Workload& workload : comparison.workloads) {
    if (workload.variant == variant) return &workload;
  }
  return nullptr;
}

const PropertyResult* find_property(const Cell& cell, const std::string& property) {
  for (const PropertyResult& result : cell.properties) {
    if (result.property == property) return &result;
  }
  return nullptr;
}

}  // namespace lockcheck::reports
