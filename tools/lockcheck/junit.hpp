#pragma once
// JUnit XML for CI systems: one <testsuite> per scenario, one <testcase> per expected property.
#include <string>
#include <vector>

#include "run_engine.hpp"

namespace lockcheck::cli {

std::string junit_xml(const std::vector<ScenarioReport>& reports);

}  // namespace lockcheck::cli
