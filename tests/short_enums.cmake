# arm-none-eabi makes enums as small as their values (-fshort-enums, so
# unsigned char here): the library must build warning-free that way too.
# Runs with the host compiler, so also where the ARM toolchain is missing.
file(GLOB_RECURSE TA_SHORT_ENUM_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/*.c)
add_test(NAME short_enums_build
         COMMAND sh -c "for f in \"$@\"; do ${CMAKE_C_COMPILER} -std=c11 -fshort-enums -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Werror -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/src -fsyntax-only \"$f\" || exit 1; done"
                 sh ${TA_SHORT_ENUM_SOURCES})
