# Runs crace for crace_check (CraceCheck.cmake): SARIF and HTML reports of
# one program, and a failure unless the exit code is one of OK. ARGS and OK
# are lists separated by '|'.
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" OK "${OK}")
execute_process(COMMAND ${CRACE} -p ${BUILD} --program=${PROGRAM} ${ARGS}
                        --format=sarif -o ${OUT}.sarif
                RESULT_VARIABLE code)
execute_process(COMMAND ${CRACE} -p ${BUILD} --program=${PROGRAM} ${ARGS}
                        --format=html -o ${OUT}.html
                OUTPUT_QUIET ERROR_QUIET)
message(STATUS "crace: ${PROGRAM}: exit code ${code}; reports ${OUT}.sarif, ${OUT}.html")
if(NOT code IN_LIST OK)
  message(FATAL_ERROR "crace: ${PROGRAM} failed the race check (exit code ${code}; "
                      "1 race, 2 possible race, 6 unknown, 3-5 errors)")
endif()
