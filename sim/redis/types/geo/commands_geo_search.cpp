// GEOSEARCH, GEOSEARCHSTORE, GEORADIUS, GEORADIUSBYMEMBER and their _RO forms, as Redis 7.0's georadiusGeneric:
// the same argument walk (so the same error wins when several apply), the same nine geohash cells scanned in the
// same order (so an unsorted reply or COUNT ANY picks the same members), the same formats.
#include <algorithm>

#include "redis/types/geo/geo_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/types/geo/geo_arguments.hpp"
#include "redis/types/geo/geo_shape.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

enum SearchFlag : unsigned {
  kFromCoordinates = 1,  // GEORADIUS: centre and radius are positional
  kFromMember = 2,       // GEORADIUSBYMEMBER
  kNoStore = 4,          // the _RO forms refuse STORE/STOREDIST
  kSearch = 8,           // GEOSEARCH syntax (FROM... BY...)
  kSearchStore = 16,     // GEOSEARCHSTORE: destination first, STOREDIST a bare flag
};

enum class Order { none, ascending, descending };

struct Found {
  std::string member;
  double score = 0;
  double distance = 0;
  geo::LonLat point;
};

struct Query {
  geo::Shape shape;
  const std::string* store_key = nullptr;
  bool store_distance = false;
  bool with_distance = false, with_hash = false, with_coordinates = false;
  bool any = false;
  std::int64_t count = 0;  // 0: all
  Order order = Order::none;
};

Reply member_not_found() { return Reply::error("ERR could not decode requested zset member"); }

std::optional<geo::LonLat> member_position(const ZSet& zset, const std::string& member) {
  auto it = zset.score_of.find(member);
  if (it == zset.score_of.end()) return std::nullopt;
  return geo::decode_score(it->second);
}

// Members whose scores fall in one cell's range [min, max) and inside the shape, appended in score order; stops
// once `limit` (0: none) results are held.
void scan_cell(const ZSet& zset, geo::HashBits cell, const geo::Shape& shape, std::size_t limit, std::vector<Found>& out) {
  const auto min = static_cast<double>(geo::align52(cell));
  ++cell.bits;
  const auto max = static_cast<double>(geo::align52(cell));
  for (auto it = zset.by_score.lower_bound({min, std::string()}); it != zset.by_score.end() && it->first < max; ++it) {
    if (const std::optional<geo::LonLat> point = geo::decode_score(it->first)) {
      if (const std::optional<double> distance = geo::distance_if_inside(shape, *point)) {
        out.push_back(Found{it->second, it->first, *distance, *point});
      }
    }
    if (!out.empty() && limit != 0 && out.size() >= limit) return;
  }
}

std::vector<Found> search(const ZSet& zset, const geo::Shape& shape, std::size_t limit) {
  const std::array<geo::HashBits, 9> cells = geo::covering_cells(shape);
  std::vector<Found> found;
  std::size_t last_scanned = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].is_zero()) continue;
    // Huge radii make neighbours coincide: a cell equal to the one scanned last is skipped.
    if (last_scanned != 0 && cells[i] == cells[last_scanned]) continue;
    if (!found.empty() && limit != 0 && found.size() >= limit) break;
    scan_cell(zset, cells[i], shape, limit, found);
    last_scanned = i;
  }
  return found;
}

Reply found_reply(const std::vector<Found>& found, std::size_t returned, const Query& query) {
  std::vector<Reply> items;
  const bool nested = query.with_distance || query.with_hash || query.with_coordinates;
  for (std::size_t i = 0; i < returned; ++i) {
    const Found& each = found[i];
    if (!nested) {
      items.push_back(Reply::bulk(each.member));
      continue;
    }
    std::vector<Reply> item{Reply::bulk(each.member)};
    if (query.with_distance) item.push_back(geo::distance_reply(each.distance / query.shape.metres_per_unit));
    if (query.with_hash) item.push_back(Reply::integer_reply(static_cast<std::int64_t>(each.score)));
    if (query.with_coordinates) item.push_back(geo::position_reply(each.point));
    items.push_back(Reply::array(std::move(item)));
  }
  return Reply::array(std::move(items));
}

Reply generic_search(CommandContext& ctx, std::size_t source_index, unsigned flags) {
  const Command& args = ctx.args;
  bool wrong_type = false;
  const ZSet* zset = find_zset(ctx.keys, args[source_index], wrong_type);
  if (wrong_type) return err::wrong_type();
  Query query;
  std::size_t base = 0;
  if (flags & kFromCoordinates) {
    base = 6;
    const geo::Parsed<geo::LonLat> centre = geo::parse_lonlat(args[2], args[3]);
    if (const Reply* refused = std::get_if<Reply>(&centre)) return *refused;
    query.shape.centre = std::get<geo::LonLat>(centre);
    const geo::Parsed<geo::Distance> radius = geo::parse_radius(args[4], args[5]);
    if (const Reply* refused = std::get_if<Reply>(&radius)) return *refused;
    query.shape.radius = std::get<geo::Distance>(radius).value;
    query.shape.metres_per_unit = std::get<geo::Distance>(radius).metres_per_unit;
  } else if (flags & kFromMember) {
    base = 5;
    if (zset != nullptr) {  // a missing source still has its arguments read, for the reply's shape
      const std::optional<geo::LonLat> centre = member_position(*zset, args[2]);
      if (!centre) return member_not_found();
      query.shape.centre = *centre;
      const geo::Parsed<geo::Distance> radius = geo::parse_radius(args[3], args[4]);
      if (const Reply* refused = std::get_if<Reply>(&radius)) return *refused;
      query.shape.radius = std::get<geo::Distance>(radius).value;
      query.shape.metres_per_unit = std::get<geo::Distance>(radius).metres_per_unit;
    }
  } else {
    base = (flags & kSearchStore) ? 3 : 2;
    if (flags & kSearchStore) query.store_key = &args[1];
  }
  bool from_member = false, from_lonlat = false, by_radius = false, by_box = false;
  const std::size_t remaining = args.size() - base;
  for (std::size_t i = 0; i < remaining; ++i) {
    const std::string& arg = args[base + i];
    const bool search = (flags & kSearch) != 0;
    const bool may_store = !(flags & kNoStore) && !search;
    if (iequals(arg, "withdist")) {
      query.with_distance = true;
    } else if (iequals(arg, "withhash")) {
      query.with_hash = true;
    } else if (iequals(arg, "withcoord")) {
      query.with_coordinates = true;
    } else if (iequals(arg, "any")) {
      query.any = true;
    } else if (iequals(arg, "asc")) {
      query.order = Order::ascending;
    } else if (iequals(arg, "desc")) {
      query.order = Order::descending;
    } else if (iequals(arg, "count") && i + 1 < remaining) {
      const std::optional<std::int64_t> count = parse_int64(args[base + i + 1]);
      if (!count) return err::not_integer();
      if (*count <= 0) return Reply::error("ERR COUNT must be > 0");
      query.count = *count;
      ++i;
    } else if ((iequals(arg, "store") || iequals(arg, "storedist")) && i + 1 < remaining && may_store) {
      query.store_key = &args[base + i + 1];
      query.store_distance = iequals(arg, "storedist");
      ++i;
    } else if (iequals(arg, "storedist") && search && (flags & kSearchStore)) {
      query.store_distance = true;
    } else if (iequals(arg, "frommember") && i + 1 < remaining && search && !from_lonlat) {
      from_member = true;
      if (zset != nullptr) {
        const std::optional<geo::LonLat> centre = member_position(*zset, args[base + i + 1]);
        if (!centre) return member_not_found();
        query.shape.centre = *centre;
      }
      ++i;
    } else if (iequals(arg, "fromlonlat") && i + 2 < remaining && search && !from_member) {
      const geo::Parsed<geo::LonLat> centre = geo::parse_lonlat(args[base + i + 1], args[base + i + 2]);
      if (const Reply* refused = std::get_if<Reply>(&centre)) return *refused;
      query.shape.centre = std::get<geo::LonLat>(centre);
      from_lonlat = true;
      i += 2;
    } else if (iequals(arg, "byradius") && i + 2 < remaining && search && !by_box) {
      const geo::Parsed<geo::Distance> radius = geo::parse_radius(args[base + i + 1], args[base + i + 2]);
      if (const Reply* refused = std::get_if<Reply>(&radius)) return *refused;
      query.shape.kind = geo::Shape::Kind::circle;
      query.shape.radius = std::get<geo::Distance>(radius).value;
      query.shape.metres_per_unit = std::get<geo::Distance>(radius).metres_per_unit;
      by_radius = true;
      i += 2;
    } else if (iequals(arg, "bybox") && i + 3 < remaining && search && !by_radius) {
      const geo::Parsed<geo::Box> box = geo::parse_box(args[base + i + 1], args[base + i + 2], args[base + i + 3]);
      if (const Reply* refused = std::get_if<Reply>(&box)) return *refused;
      query.shape.kind = geo::Shape::Kind::box;
      query.shape.width = std::get<geo::Box>(box).width;
      query.shape.height = std::get<geo::Box>(box).height;
      query.shape.metres_per_unit = std::get<geo::Box>(box).metres_per_unit;
      by_box = true;
      i += 3;
    } else {
      return err::syntax();
    }
  }
  if (query.store_key != nullptr && (query.with_distance || query.with_hash || query.with_coordinates)) {
    return Reply::error(std::string("ERR ") + ((flags & kSearchStore) ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS") +
                        " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
  }
  if ((flags & kSearch) && !(from_member || from_lonlat)) {
    return Reply::error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + args[0]);
  }
  if ((flags & kSearch) && !(by_radius || by_box)) {
    return Reply::error("ERR exactly one of BYRADIUS and BYBOX can be specified for " + args[0]);
  }
  if (query.any && query.count == 0) return Reply::error("ERR the ANY argument requires COUNT argument");
  if (zset == nullptr) {
    if (query.store_key == nullptr) return Reply::array({});
    ctx.keys.remove(*query.store_key);
    return Reply::integer_reply(0);
  }
  // COUNT alone means the nearest ones: ascending unless ANY (the first found) or an order was asked.
  if (query.count != 0 && query.order == Order::none && !query.any) query.order = Order::ascending;
  std::vector<Found> found = search(*zset, query.shape, query.any ? static_cast<std::size_t>(query.count) : 0);
  if (found.empty() && query.store_key == nullptr) return Reply::array({});
  const std::size_t returned =
      query.count == 0 || found.size() < static_cast<std::size_t>(query.count) ? found.size() : static_cast<std::size_t>(query.count);
  if (query.order != Order::none) {
    const bool ascending = query.order == Order::ascending;
    std::stable_sort(found.begin(), found.end(), [ascending](const Found& a, const Found& b) {
      return ascending ? a.distance < b.distance : a.distance > b.distance;
    });
  }
  if (query.store_key == nullptr) return found_reply(found, returned, query);
  ZSet result;
  for (std::size_t i = 0; i < returned; ++i) {
    const double score = query.store_distance ? found[i].distance / query.shape.metres_per_unit : found[i].score;
    zset_put(result, found[i].member, score);
  }
  return store_zset(ctx.keys, *query.store_key, std::move(result));
}

}  // namespace

Reply georadius(CommandContext& ctx) { return generic_search(ctx, 1, kFromCoordinates); }
Reply georadius_ro(CommandContext& ctx) { return generic_search(ctx, 1, kFromCoordinates | kNoStore); }
Reply georadiusbymember(CommandContext& ctx) { return generic_search(ctx, 1, kFromMember); }
Reply georadiusbymember_ro(CommandContext& ctx) { return generic_search(ctx, 1, kFromMember | kNoStore); }
Reply geosearch(CommandContext& ctx) { return generic_search(ctx, 1, kSearch); }
Reply geosearchstore(CommandContext& ctx) { return generic_search(ctx, 2, kSearch | kSearchStore); }

}  // namespace lockcheck::mock::cmd
