#include "dashboard/static_assets.h"

#include <gtest/gtest.h>

namespace apogee::dashboard {
namespace {

TEST(StaticAssetsTest, ContentTypeFollowsTheExtension) {
  EXPECT_EQ(ContentTypeOf("/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("/vendor/uPlot.iife.min.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("/vendor/uPlot.min.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeOf("/blob"), "application/octet-stream");
}

TEST(StaticAssetsTest, FindAssetMapsTheRootToIndexAndNothingElse) {
  const StaticAsset assets[] = {{"/index.html", "<html>"}, {"/app.js", "js"}};
  ASSERT_NE(FindAsset(assets, "/"), nullptr);
  EXPECT_EQ(FindAsset(assets, "/")->data, "<html>");
  EXPECT_EQ(FindAsset(assets, "/app.js")->data, "js");
  EXPECT_EQ(FindAsset(assets, "/../etc/passwd"), nullptr);
  EXPECT_EQ(FindAsset(assets, "/app.js/"), nullptr);
  EXPECT_EQ(FindAsset({}, "/"), nullptr);
}

}  // namespace
}  // namespace apogee::dashboard
