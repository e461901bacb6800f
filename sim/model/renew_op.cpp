#include "model/renew_op.hpp"

#include <utility>

#include "model/json_fields.hpp"

namespace lockcheck::sim {

namespace {

template <typename Out>
void renew_fields(Out& out, const RenewalEvent& event, std::int64_t process, std::int64_t local_us,
                  std::int64_t valid_until_true_us, std::int64_t valid_until_local_us) {
  const char* type = nullptr;
  const char* result = nullptr;
  const char* f = "renew";
  switch (event.kind) {
    case RenewalEvent::Kind::renewing: type = "invoke"; break;
    case RenewalEvent::Kind::renewed: type = "ok"; result = "renewed"; break;
    case RenewalEvent::Kind::lost: type = "fail"; result = "lost"; break;
    case RenewalEvent::Kind::unknown: type = "info"; result = "unknown"; break;
    case RenewalEvent::Kind::stopped: type = "info"; f = "renewal_stop"; break;
  }
  out.add("type", type).add("process", process).add("f", f).add("key", event.key).add("local", local_us);
  out.add("token", event.token);
  if (result != nullptr) out.add("result", result);
  if (event.kind == RenewalEvent::Kind::renewed) {
    out.add("valid_until", valid_until_true_us).add("valid_until_local", valid_until_local_us);
  }
  if (!event.detail.empty()) out.add("detail", event.detail);
}

}  // namespace

Json renew_op_fields(const RenewalEvent& event, std::int64_t process, std::int64_t local_us,
                     std::int64_t valid_until_true_us, std::int64_t valid_until_local_us) {
  JsonFields fields;
  renew_fields(fields, event, process, local_us, valid_until_true_us, valid_until_local_us);
  return std::move(fields.json);
}

void add_renew_op_fields(HistoryLine& line, const RenewalEvent& event, std::int64_t process, std::int64_t local_us,
                         std::int64_t valid_until_true_us, std::int64_t valid_until_local_us) {
  renew_fields(line, event, process, local_us, valid_until_true_us, valid_until_local_us);
}

}  // namespace lockcheck::sim
