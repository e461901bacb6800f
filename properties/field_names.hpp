#pragma once
// The history's field names and their numbers are the model's (sim/model/history_fields.hpp): the parser asks for
// fields by them.
#include "model/history_fields.hpp"

namespace lockcheck::properties {

using sim::FieldName;
using sim::field_id;
using sim::kFieldNameCount;
using sim::kNoFieldId;
namespace detail {
using sim::detail::same_name;
}  // namespace detail

}  // namespace lockcheck::properties
