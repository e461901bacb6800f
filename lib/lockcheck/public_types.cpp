#include "lockcheck/public_types.hpp"

#include <algorithm>

#include "lockcheck/variants/registry.hpp"

namespace lockcheck {

const std::vector<PublicType>& public_types() {
  // Read off the variant rows (variants/variant_table.cpp), where each type is declared beside its variant.
  static const std::vector<PublicType> types = [] {
    std::vector<PublicType> out;
    for (const VariantRow& row : variant_rows()) {
      if (!row.public_type.empty()) out.push_back({row.id, row.public_type, row.owned});
    }
    return out;
  }();
  return types;
}

const PublicType* public_type_of(std::string_view variant) {
  const auto& types = public_types();
  const auto found = std::find_if(types.begin(), types.end(), [&](const PublicType& type) { return type.variant == variant; });
  return found == types.end() ? nullptr : &*found;
}

}  // namespace lockcheck
