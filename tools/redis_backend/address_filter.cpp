#include "address_filter.hpp"

#include <algorithm>
#include <stdexcept>

#include "command_words.hpp"
#include "resp_frames.hpp"
#include "resp_value.hpp"

namespace lockcheck::redis_backend {
namespace {

// An inline command ("CLUSTER SLOTS\r\n", as redis-cli or telnet send) ends at its line feed.
std::size_t inline_length(std::string_view bytes) {
  const std::size_t end = bytes.find('\n');
  return end == std::string_view::npos ? 0 : end + 1;
}

bool is_subscribe(const std::string& word) {
  return word == "subscribe" || word == "psubscribe" || word == "ssubscribe";
}

}  // namespace

void AddressFilter::note_request(std::string_view frame) {
  const std::vector<std::string> words = words_of(frame);
  if (words.empty()) return;  // an empty inline line: the server answers nothing
  const std::string command = lowercase(words[0]);
  if (command.ends_with("unsubscribe")) return;  // answered by pushes (below)
  // A subscription answers once per channel.
  const std::size_t answers = is_subscribe(command) ? std::max<std::size_t>(1, words.size() - 1) : 1;
  const int query = replies_->query_of(words);
  for (std::size_t i = 0; i < answers; ++i) pending_.push_back(query);
}

std::string AddressFilter::reply(std::string_view frame) {
  // Pushes of a subscribed connection answer no request.
  if (frame[0] == '*' && frame.size() < 64 * 1024) {
    const RespValue value = parse_resp(frame);
    if (!value.elements.empty()) {
      const std::string& kind = value.elements[0].text;
      if (kind == "message" || kind == "pmessage" || kind == "smessage") return replies_->rewrite_push(frame);
      if (kind.ends_with("unsubscribe")) return std::string(frame);
    }
  }
  // Replies come in the order of the requests, but a fault proxy behind this one may have dropped a request
  // or a reply: a reply shaped as the answer to a pending query answers the first such query, and
  // every request before it lost its reply. Any other reply answers the oldest request.
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i] != 0 && replies_->answers(pending_[i], frame)) {
      const int query = pending_[i];
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return replies_->rewrite(query, frame);
    }
  }
  if (!pending_.empty()) pending_.pop_front();
  return replies_->rewrite(0, frame);
}

std::string AddressFilter::pass(bool to_server, std::string_view bytes) {
  std::string& partial = to_server ? requests_ : replies_bytes_;
  partial.append(bytes);
  std::string out;
  // Bounded: each pass removes one whole message from `partial`.
  for (;;) {
    if (partial.empty()) break;
    const std::size_t length = to_server && partial[0] != '*' ? inline_length(partial) : resp_frame_length(partial);
    if (length == 0) break;
    const std::string_view frame = std::string_view(partial).substr(0, length);
    if (to_server) {
      note_request(frame);
      out.append(frame);
    } else {
      out += reply(frame);
    }
    partial.erase(0, length);
  }
  return out;
}

}  // namespace lockcheck::redis_backend
