#pragma once
// Draws a Timeline as one inline SVG element (no scripts, no external references), for report.html.
// Structure the browser test relies on: <svg class="timeline" data-lanes="N"> with N <g class="lane">.
#include <string>

#include "timeline.hpp"

namespace lockcheck::reports {

// `id` becomes the svg's id; `title` its accessible label.
std::string timeline_svg(const Timeline& timeline, const std::string& id, const std::string& title);

// Holds and key instances are coloured by their owner (process index) through classes o0 .. o7, whose
// colours owner_colours_css() defines; owner_colour() is one of them (for a legend).
inline constexpr std::int64_t kOwnerColours = 8;
std::string owner_colour(std::int64_t owner);
std::string owner_colours_css();

}  // namespace lockcheck::reports
