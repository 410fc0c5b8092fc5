# Writes vhist.1 at build time: the hand-written parts in docs/vhist.1.in around what the built
# binary prints for `vhist --help` and `vhist analyze|scope|qc|batch --help` (generated from the option and
# settings tables, keys included), so the man page cannot drift from the options.
#   cmake -DVHIST=path/to/vhist -DTEMPLATE=docs/vhist.1.in -DOUT=vhist.1 -DVERSION=x.y.z -P make_man_page.cmake

# The text as a roff no-fill block: backslashes escaped, lines that would start a request
# protected, the characters roff takes specially kept literal.
function(roff_literal text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

function(run_help out_var)
  execute_process(COMMAND "${VHIST}" ${ARGN} --help OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "vhist ${ARGN} --help failed (${rc}): ${err}")
  endif()
  if(text MATCHES "[^\t\n -~]")
    message(FATAL_ERROR "vhist ${ARGN} --help printed non-ASCII text; escape it for roff in make_man_page.cmake")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

run_help(viewer_help)
run_help(analyze_help analyze)
run_help(scope_help scope)
run_help(qc_help qc)
run_help(batch_help batch)

# The keys: the paragraph of `vhist --help` that starts with "Keys:", as filled text.
set(KEYS "")
if(viewer_help MATCHES "\nKeys:([^\n]*(\n[ ]+[^\n]+)*)")
  string(REGEX REPLACE "\n[ ]+" " " KEYS "${CMAKE_MATCH_1}")
  string(STRIP "${KEYS}" KEYS)
  string(REPLACE "\\" "\\e" KEYS "${KEYS}")
  string(REPLACE "-" "\\-" KEYS "${KEYS}")
else()
  message(FATAL_ERROR "vhist --help has no \"Keys:\" paragraph for the man page's KEYS section")
endif()
roff_literal("${viewer_help}" VIEWER_HELP)
roff_literal("${analyze_help}" ANALYZE_HELP)
roff_literal("${scope_help}" SCOPE_HELP)
roff_literal("${qc_help}" QC_HELP)
roff_literal("${batch_help}" BATCH_HELP)
configure_file("${TEMPLATE}" "${OUT}" @ONLY)
