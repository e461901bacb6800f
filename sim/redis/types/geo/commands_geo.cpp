// GEOADD, GEOPOS, GEODIST, GEOHASH: points kept in a sorted set as 52-bit geohash scores (geohash.hpp), as Redis
// 7.0 keeps them; GEOADD is ZADD with the coordinates turned into scores. The searches: commands_geo_search.cpp.
#include "redis/types/geo/geo_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/types/geo/geo_arguments.hpp"
#include "redis/types/geo/geo_shape.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"
#include "redis/types/zset/zset_family.hpp"  // GEOADD runs ZADD

namespace lockcheck::mock::cmd {
namespace {

const double* score_in(const ZSet* zset, const std::string& member) {
  if (zset == nullptr) return nullptr;
  auto it = zset->score_of.find(member);
  return it == zset->score_of.end() ? nullptr : &it->second;
}

std::optional<geo::LonLat> member_point(const ZSet* zset, const std::string& member) {
  const double* score = score_in(zset, member);
  return score == nullptr ? std::nullopt : geo::decode_score(*score);
}

}  // namespace

// GEOADD key [NX|XX] [CH] longitude latitude member ...: the reply, errors, keyspace event ("zadd") and
// statistics of the ZADD it becomes.
Reply geoadd(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool nx = false, xx = false;
  std::size_t first = 2;
  for (; first < args.size(); ++first) {
    if (iequals(args[first], "nx")) nx = true;
    else if (iequals(args[first], "xx")) xx = true;
    else if (!iequals(args[first], "ch")) break;
  }
  if ((args.size() - first) % 3 != 0 || (nx && xx)) return err::syntax();
  Command as_zadd(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(first));
  for (std::size_t i = first; i < args.size(); i += 3) {
    const geo::Parsed<geo::LonLat> point = geo::parse_lonlat(args[i], args[i + 1]);
    if (const Reply* refused = std::get_if<Reply>(&point)) return *refused;
    const geo::HashBits hash = geo::encode(std::get<geo::LonLat>(point).longitude,
                                           std::get<geo::LonLat>(point).latitude, geo::kStepMax).value_or(geo::HashBits{});
    as_zadd.push_back(std::to_string(geo::align52(hash)));
    as_zadd.push_back(args[i + 2]);
  }
  CommandContext inner{ctx.node, ctx.keys, ctx.session, as_zadd, ctx.in_script, ctx.resp};
  return zadd(inner);
}

Reply geopos(CommandContext& ctx) {
  bool wrong_type = false;
  const ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> positions;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    const std::optional<geo::LonLat> point = member_point(zset, ctx.args[i]);
    positions.push_back(point ? geo::position_reply(*point) : Reply::null_array());
  }
  return Reply::array(std::move(positions));
}

// GEODIST key member1 member2 [unit]: metres unless a unit is named; nil when either member is missing.
Reply geodist(CommandContext& ctx) {
  const Command& args = ctx.args;
  double metres_per_unit = 1;
  if (args.size() == 5) {
    const geo::Parsed<double> unit = geo::parse_unit(args[4]);
    if (const Reply* refused = std::get_if<Reply>(&unit)) return *refused;
    metres_per_unit = std::get<double>(unit);
  } else if (args.size() > 5) {
    return err::syntax();
  }
  bool wrong_type = false;
  const ZSet* zset = find_zset(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  const double* score1 = score_in(zset, args[2]);
  const double* score2 = score_in(zset, args[3]);
  if (score1 == nullptr || score2 == nullptr) return Reply::nil();
  const std::optional<geo::LonLat> a = geo::decode_score(*score1);
  const std::optional<geo::LonLat> b = geo::decode_score(*score2);
  if (!a || !b) return Reply::nil();
  return geo::distance_reply(geo::distance_m(a->longitude, a->latitude, b->longitude, b->latitude) / metres_per_unit);
}

// GEOHASH key member ...: the standard 11-character geohash (latitude over [-90, 90], not the score's range);
// the 11th character stands for bits the score does not have, always '0'.
Reply geohash(CommandContext& ctx) {
  constexpr std::string_view kAlphabet = "0123456789bcdefghjkmnpqrstuvwxyz";
  bool wrong_type = false;
  const ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> hashes;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    const std::optional<geo::LonLat> point = member_point(zset, ctx.args[i]);
    if (!point) {
      hashes.push_back(Reply::nil());
      continue;
    }
    const geo::HashBits standard =
        geo::encode(geo::Range{-180, 180}, geo::Range{-90, 90}, point->longitude, point->latitude, geo::kStepMax)
            .value_or(geo::HashBits{});
    std::string text(11, '0');
    for (int c = 0; c < 10; ++c) text[static_cast<std::size_t>(c)] = kAlphabet[(standard.bits >> (52 - (c + 1) * 5)) & 0x1f];
    hashes.push_back(Reply::bulk(std::move(text)));
  }
  return Reply::array(std::move(hashes));
}

}  // namespace lockcheck::mock::cmd
