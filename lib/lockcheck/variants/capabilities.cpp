#include "lockcheck/variants/capabilities.hpp"

#include "lockcheck/variants/registry.hpp"

namespace lockcheck {
namespace {

// The capability columns of the variant rows (variant_table.cpp); an unknown id can do nothing.
bool row_says(const std::string& id, bool VariantRow::*column) {
  const VariantRow* row = find_variant(id);
  return row != nullptr && row->*column;
}

}  // namespace

bool renews_in_background(const std::string& id) {
  const VariantRow* row = find_variant(id);
  return row != nullptr && row->renewal == Renewal::in_background;
}

bool has_shared_mode(const std::string& id) { return row_says(id, &VariantRow::shared_mode); }

bool hands_out_fencing_tokens(const std::string& id) { return row_says(id, &VariantRow::fencing_tokens); }

bool counts_permits(const std::string& id) { return row_says(id, &VariantRow::counts_permits); }

bool counts_down(const std::string& id) { return row_says(id, &VariantRow::counts_down); }
bool grants_in_order(const std::string& id) { return row_says(id, &VariantRow::grants_in_order); }

bool is_reentrant(const std::string& id) { return row_says(id, &VariantRow::reentrant); }

std::vector<std::string> variants_where(bool (*has)(const std::string&)) {
  std::vector<std::string> out;
  for (const std::string& id : variant_ids()) {
    if (has(id)) out.push_back(id);
  }
  return out;
}

}  // namespace lockcheck
