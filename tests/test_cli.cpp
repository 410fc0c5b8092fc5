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
