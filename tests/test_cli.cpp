#include "vhist/cli/cli.h"

#include <gtest/gtest.h>

namespace {

TEST(Cli, ParseSize) {
  EXPECT_EQ(vhist::cli::parse_size("1920x1080"), (std::pair<std::uint32_t, std::uint32_t>{1920, 1080}));
  EXPECT_FALSE(vhist::cli::parse_size("1920"));
  EXPECT_FALSE(vhist::cli::parse_size("0x10"));
  EXPECT_FALSE(vhist::cli::parse_size("10x"));
  EXPECT_FALSE(vhist::cli::parse_size("axb"));
  EXPECT_FALSE(vhist::cli::parse_size("10x10x10"));
}

TEST(Cli, ParseUint) {
  EXPECT_EQ(vhist::cli::parse_uint("256", 16, 1024), 256u);
  EXPECT_FALSE(vhist::cli::parse_uint("8", 16, 1024));
  EXPECT_FALSE(vhist::cli::parse_uint("-1", 0, 10));
  EXPECT_FALSE(vhist::cli::parse_uint("12abc", 0, 100));
  EXPECT_FALSE(vhist::cli::parse_uint("", 0, 100));
}

TEST(Cli, SplitList) {
  EXPECT_EQ(vhist::cli::split_list("a,b,,c"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(vhist::cli::split_list("").empty());
}

}  // namespace

TEST(Cli, ParseTime) {
  EXPECT_EQ(vhist::cli::parse_time("12.5"), 12.5);
  EXPECT_EQ(vhist::cli::parse_time("1:02.5"), 62.5);
  EXPECT_EQ(vhist::cli::parse_time("1:01:02"), 3662.0);
  EXPECT_FALSE(vhist::cli::parse_time("soon"));
  EXPECT_FALSE(vhist::cli::parse_time("-1"));
  EXPECT_FALSE(vhist::cli::parse_time("1::2"));
  EXPECT_FALSE(vhist::cli::parse_time("1:2:3:4"));
}

// Issue 25: "1:99" was taken as 159 s. After a colon, minutes and seconds are below 60; the
// first field may be any size ("90:00" is 90 minutes); hours and minutes are whole numbers.
TEST(Cli, ParseTimeRefusesSixtyAfterAColon) {
  EXPECT_FALSE(vhist::cli::parse_time("1:99"));
  EXPECT_FALSE(vhist::cli::parse_time("1:60"));
  EXPECT_FALSE(vhist::cli::parse_time("0:60.0"));
  EXPECT_FALSE(vhist::cli::parse_time("1:60:00"));
  EXPECT_FALSE(vhist::cli::parse_time("1:00:75"));
  EXPECT_FALSE(vhist::cli::parse_time("1.5:30"));
  EXPECT_EQ(vhist::cli::parse_time("1:59.999"), 60 + 59.999);
  EXPECT_EQ(vhist::cli::parse_time("90:00"), 5400.0);
  EXPECT_EQ(vhist::cli::parse_time("2:59:59"), 2 * 3600 + 59 * 60 + 59.0);
  EXPECT_EQ(vhist::cli::parse_time("99"), 99.0);  // plain seconds have no bound of 60
}

TEST(Cli, ParseRate) {
  EXPECT_EQ(vhist::cli::parse_rate("30"), 30.0);
  EXPECT_EQ(vhist::cli::parse_rate("12.5"), 12.5);
  EXPECT_FALSE(vhist::cli::parse_rate("0"));
  EXPECT_FALSE(vhist::cli::parse_rate("fast"));
  EXPECT_FALSE(vhist::cli::parse_rate("2000"));
}

TEST(Cli, ParseFraction) {
  EXPECT_EQ(vhist::cli::parse_fraction("0.5"), 0.5);
  EXPECT_EQ(vhist::cli::parse_fraction("0"), 0.0);
  EXPECT_EQ(vhist::cli::parse_fraction("1"), 1.0);
  EXPECT_FALSE(vhist::cli::parse_fraction("1.01"));
  EXPECT_FALSE(vhist::cli::parse_fraction("-0.1"));
  EXPECT_FALSE(vhist::cli::parse_fraction("nan"));
  EXPECT_FALSE(vhist::cli::parse_fraction("0.5x"));
  EXPECT_FALSE(vhist::cli::parse_fraction(""));
}
