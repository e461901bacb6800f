# Counts, without running anything, which tests of one Redis test unit a tag filter drops.
#   tclsh tag_census.tcl UNIT_FILE DENYTAGS SINGLEDB
# Walks the unit as Redis's test framework (7.0) would in external-server mode: start_server and tags blocks
# add their tags, and a block whose tags are not acceptable drops every test inside it with the block's reason,
# in the framework's order (tags_acceptable): a denied tag ("-slow" -> "slow"), then external:skip (always:
# the yardstick runs in external mode), then singledb:skip (with --singledb). Every other command is a no-op
# that answers "0" (Tcl's `unknown`), so a test whose definition depends on a server's reply may be missed;
# the yardstick prints the census beside the real runs' own counts.
# Prints one line per test: "<reason or runs>\t<test name>", then "census-error\t<message>" if the unit's
# code stopped the walk early.
set unit_file [lindex $argv 0]
set ::denytags [lindex $argv 1]
set ::singledb [lindex $argv 2]
set ::tags {}
set ::denied ""

proc reason_for {tags} {
    foreach tag $::denytags {
        if {[lsearch -exact $tags $tag] >= 0} { return $tag }
    }
    if {[lsearch -exact $tags external:skip] >= 0} { return external:skip }
    if {$::singledb && [lsearch -exact $tags singledb:skip] >= 0} { return singledb:skip }
    return ""
}

# Runs `code` one level up with `added` tags; a block denied here drops everything inside for that reason.
proc within {added code} {
    set saved_tags $::tags
    set saved_denied $::denied
    set ::tags [concat $::tags [string map {\" ""} $added]]  ;# as the framework: {"repl external:skip"}
    if {$::denied eq ""} { set ::denied [reason_for $::tags] }
    set failed [catch {uplevel 2 $code} message]
    set ::tags $saved_tags
    set ::denied $saved_denied
    if {$failed} { puts "census-error\t$message" }
}

proc tags {tags code} { within $tags $code }
proc start_server {options {code undefined}} {
    set added {}
    if {[llength $options] % 2 == 0 && [dict exists $options tags]} { set added [dict get $options tags] }
    if {$code ne "undefined"} { within $added $code }
}
proc start_multiple_servers {num options code} { start_server $options $code }
proc test {name code {okpattern undefined} {tags {}}} {
    set reason $::denied
    if {$reason eq ""} { set reason [reason_for [concat $::tags [string map {\" ""} $tags]]] }
    if {$reason eq ""} { set reason runs }
    puts "$reason\t$name"
}
proc unknown args { return 0 }

# Framework globals units read.
foreach {name value} {
    accurate 0 valgrind 0 external 1 tls 0 large_memory 0 cluster_mode 0 durable 1 debug_defrag 0
    log_req_res 0 force_resp3 0 quiet 0 verbose 0 host 127.0.0.1 port 0 all_tests {} num_tests 0
} { set ::$name $value }

if {[catch {source $unit_file} message]} { puts "census-error\t$message" }
