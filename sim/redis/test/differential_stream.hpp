#pragma once
// Stream steps of the differential test (included by differential_test.cpp after its generators). Only explicit
// IDs: "*" takes each server's own clock. Idle and delivery times stay out of the compared replies: XPENDING's
// extended form runs with an IDLE no entry reaches, XCLAIM/XAUTOCLAIM with JUSTID, XINFO only in forms without
// times (STREAM without FULL, GROUPS). DUMP and RESTORE of the streams themselves.

namespace lockcheck::mock::testing {
namespace {  // the generators it builds on are differential_test.cpp's own

rc::Gen<std::string> stream_id() {
  return rc::gen::element<std::string>("1", "2-1", "3-*", "5", "5-*", "0-1", "0-0", "7-0", "abc", "(3", "-", "+");
}

rc::Gen<Step> stream_step() {
  auto as_step = [](rc::Gen<Command> gen) { return rc::gen::map(gen, [](Command c) { return Step{std::move(c), false}; }); };
  auto k = rc::gen::weightedElement<std::string>({{6, "x1"}, {2, "x2"}, {1, "k1"}});
  auto id = stream_id();
  auto group = rc::gen::element<std::string>("g", "h");
  auto consumer = rc::gen::element<std::string>("alice", "bob");
  auto small = rc::gen::element<std::string>("0", "1", "2", "-1", "x");
  return rc::gen::weightedOneOf<Step>({
      {6, as_step(plain({k, id, rc::gen::element<std::string>("f", "g"), value()}, "XADD"))},
      // IDs past the others' that always add: streams long enough for several nodes (stream-node-max-entries 3).
      {10, as_step(plain({k, rc::gen::just<std::string>("99-*"), rc::gen::element<std::string>("f", "g"), value()}, "XADD"))},
      {2, rc::gen::exec([k, id, small] {
         Command command{"XADD", *k};
         command.push_back(*rc::gen::element<std::string>("MAXLEN", "MINID", "maxlen", "NOMKSTREAM", "LIMIT"));
         if (command.back() != "NOMKSTREAM") {
           const std::string op = *rc::gen::element<std::string>("", "=", "~");
           if (!op.empty()) command.push_back(op);
           command.push_back(command[2] == "MINID" ? *rc::gen::element<std::string>("2", "5-1", "x") : *small);
         }
         command.push_back(*id);
         command.insert(command.end(), {"f", "v"});
         return Step{std::move(command), false};
       })},
      {1, as_step(plain({k}, "XLEN"))},
      {2, as_step(plain({k, id, id}, "XRANGE"))},
      {1, as_step(plain({k, id, id, rc::gen::just<std::string>("COUNT"), small}, "XREVRANGE"))},
      {2, as_step(plain({k, id, id}, "XDEL"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("MAXLEN", "MINID", "FOO"), small}, "XTRIM"))},
      {1, as_step(plain({k, id, rc::gen::element<std::string>("ENTRIESADDED", "MAXDELETEDID"), small}, "XSETID"))},
      {1, as_step(plain({k, id}, "XSETID"))},
      {2, as_step(plain({rc::gen::just<std::string>("CREATE"), k, group, rc::gen::element<std::string>("0", "$", "2-0", "x"),
                         rc::gen::element<std::string>("MKSTREAM", "ENTRIESREAD")},
                        "XGROUP"))},
      {1, as_step(plain({rc::gen::element<std::string>("SETID", "CREATE"), k, group, rc::gen::element<std::string>("0", "$", "2-0")},
                        "XGROUP"))},
      {1, as_step(plain({rc::gen::element<std::string>("CREATECONSUMER", "DELCONSUMER"), k, group, consumer}, "XGROUP"))},
      {1, as_step(plain({rc::gen::just<std::string>("DESTROY"), k, group}, "XGROUP"))},
      // Groups that exist and reads that succeed often enough for pending entries and consumers in DUMP payloads.
      {3, as_step(plain({rc::gen::just<std::string>("CREATE"), k, group, rc::gen::element<std::string>("0", "$")}, "XGROUP"))},
      {4, as_step(plain({rc::gen::just<std::string>("GROUP"), group, consumer, rc::gen::just<std::string>("COUNT"),
                         rc::gen::element<std::string>("1", "2"), rc::gen::just<std::string>("STREAMS"), k,
                         rc::gen::just<std::string>(">")},
                        "XREADGROUP"))},
      {3, as_step(plain({rc::gen::just<std::string>("GROUP"), group, consumer, rc::gen::element<std::string>("COUNT", "NOACK"),
                         rc::gen::just<std::string>("1"), rc::gen::just<std::string>("STREAMS"), k,
                         rc::gen::element<std::string>(">", "0", "$", "x")},
                        "XREADGROUP"))},
      {1, as_step(plain({rc::gen::just<std::string>("COUNT"), small, rc::gen::just<std::string>("STREAMS"), k,
                         rc::gen::element<std::string>("0", "2", "$", ">")},
                        "XREAD"))},
      // BLOCK only where it is refused: a real redis-server would hold this one connection (unit tests block).
      {1, as_step(plain({rc::gen::just<std::string>("BLOCK"), rc::gen::element<std::string>("-1", "x", "1.5"),
                         rc::gen::just<std::string>("STREAMS"), k, rc::gen::just<std::string>("0")},
                        "XREAD"))},
      {2, as_step(plain({k, group, id, id}, "XACK"))},
      {1, as_step(plain({k, group}, "XPENDING"))},
      {1, as_step(plain({k, group, rc::gen::just<std::string>("IDLE"), rc::gen::just<std::string>("100000"), id, id,
                         rc::gen::just<std::string>("10")},
                        "XPENDING"))},
      {1, as_step(plain({k, group, consumer, rc::gen::just<std::string>("0"), id, rc::gen::element<std::string>("FORCE", "RETRYCOUNT"),
                         rc::gen::element<std::string>("JUSTID", "3")},
                        "XCLAIM"))},
      {1, as_step(plain({k, group, consumer, rc::gen::just<std::string>("0"), id, rc::gen::just<std::string>("JUSTID")},
                        "XAUTOCLAIM"))},
      {1, as_step(plain({rc::gen::element<std::string>("STREAM", "GROUPS"), k}, "XINFO"))},
      {1, as_step(plain({k}, "TYPE"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("x2", "x3")}, "COPY"))},
      // DUMP compared by content and bytes, RESTORE of redis-server's own DUMP (differential_dump.hpp).
      {3, as_step(plain({k}, "DUMP"))},
      {2, rc::gen::exec([k] {
         Command command{"RESTORE", *k, *rc::gen::element<std::string>("0", "150000"), "@dump:" + *rc::gen::element<std::string>("x1", "x2")};
         if (*rc::gen::element(true, true, false)) command.push_back("REPLACE");
         return Step{std::move(command), false};
       })},
  });
}

}  // namespace
}  // namespace lockcheck::mock::testing
