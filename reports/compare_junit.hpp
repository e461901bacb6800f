#pragma once
// JUnit XML for a comparison (`lockcheck compare --junit`): one <testsuite> per variant, one <testcase> per
// (fault family, property) that was checked, a <failure> where the property broke. A comparison gates
// nothing by itself; this lets CI dashboards show which variant breaks where.
#include <string>

#include "comparison.hpp"

namespace lockcheck::reports {

std::string compare_junit_xml(const Comparison& comparison);

}  // namespace lockcheck::reports
