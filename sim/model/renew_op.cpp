#include "model/renew_op.hpp"

namespace lockcheck::sim {

Json renew_op_fields(const RenewalEvent& event, std::int64_t process, std::int64_t local_us,
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
  Json fields{{"type", type}, {"process", process}, {"f", f}, {"key", event.key}, {"local", local_us},
              {"token", event.token}};
  if (result != nullptr) fields["result"] = result;
  if (event.kind == RenewalEvent::Kind::renewed) {
    fields["valid_until"] = valid_until_true_us;
    fields["valid_until_local"] = valid_until_local_us;
  }
  if (!event.detail.empty()) fields["detail"] = event.detail;
  return fields;
}

}  // namespace lockcheck::sim
