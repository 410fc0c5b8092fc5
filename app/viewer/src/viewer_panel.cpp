// The control panel, section by section: file, camera, playback, histogram, status and numbers.
// The settings' widgets come from their rows (panel_widgets.h); this file places them.
#include "vhist/viewer/panel_widgets.h"
#include "viewer_app.h"
#include "viewer_hwdec.h"
#include "viewer_timeline.h"

#include "vhist/compute/colour_names.h"
#include "vhist/compute/transfer.h"
#include "vhist/picture/light_scale.h"
#include "vhist/records/run_summary.h"
#include "vhist/exposure_shared.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <span>
#include <initializer_list>
#include <iterator>
#include <string>

namespace vhist::viewer {

namespace {


void draw_file_section(App& app) {
  ImGui::SetNextItemWidth(-110);
  const bool enter = ImGui::InputText("##path", &app.transport.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  // A path longer than the field: all of it in a tooltip.
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive() &&
      ImGui::CalcTextSize(app.transport.open_path.c_str()).x > ImGui::GetItemRectSize().x - 2 * ImGui::GetStyle().FramePadding.x) {
    ImGui::SetTooltip("%s", app.transport.open_path.c_str());
  }
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) app.transport.pending_open = app.transport.open_path;
  ImGui::SameLine();
  if (ImGui::Button("Browse")) {
    app.transport.browser.open(app.transport.open_path.empty() ? std::filesystem::current_path()
                                           : std::filesystem::path(app.transport.open_path).parent_path());
  }
  const auto& recent = app.settings.recent_files;
  if (!recent.empty()) {
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##recent", "Recent files")) {
      for (const auto& f : recent) {
        if (ImGui::Selectable(f.c_str())) app.transport.pending_open = f;
      }
      ImGui::EndCombo();
    }
  }
  if (ImGui::Button("Cameras")) {
    app.transport.cameras = media::list_cameras();
    if (app.transport.cameras.cameras.empty()) {
      show_message(app,
                   "No camera found (no /dev/video* capture device" +
                       (app.transport.cameras.errors.empty() ? std::string(")") : "; " + app.transport.cameras.errors.front() + ")"),
                   true);
    } else {
      show_message(app, std::to_string(app.transport.cameras.cameras.size()) + " camera(s) found: choose one in the list");
    }
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  const char* camera_hint = app.transport.cameras.cameras.empty() ? "(none listed)" : "Open a camera";
  if (ImGui::BeginCombo("##cameras", camera_hint)) {
    for (const auto& c : app.transport.cameras.cameras) {
      if (ImGui::Selectable((c.path + "  " + c.name + "  (" + c.bus + ")").c_str())) app.transport.pending_open = c.path;
    }
    for (const auto& e : app.transport.cameras.errors) ImGui::TextDisabled("%s", e.c_str());
    ImGui::EndCombo();
  }
  if (!app.transport.error.empty()) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", app.transport.error.c_str());
}

// A camera: live state instead of playback controls.
void draw_camera_section(Player& p) {
  ImGui::Separator();
  const media::CameraStatus cs = p.camera_status();
  if (ImGui::Button(p.paused() ? "Resume" : "Freeze")) p.set_paused(!p.paused());
  ImGui::SameLine();
  if (cs.connected) {
    ImGui::Text("live  %lld captured  %lld dropped  latency %.1f ms", static_cast<long long>(cs.captured),
                static_cast<long long>(cs.dropped), p.frame_age_ms());
  } else {
    ImGui::TextColored(ImVec4(1, 0.7f, 0.2f, 1), "%s", cs.message.c_str());
  }
}

void draw_playback_section(App& app) {
  Player& p = app.transport.player;
  ImGui::Separator();
  if (ImGui::Button(p.paused() ? "Play" : "Pause")) p.set_paused(!p.paused());
  ImGui::SameLine();
  if (ImGui::Button("<")) p.step_back();
  ImGui::SameLine();
  if (ImGui::Button(">")) p.step_forward();
  ImGui::SameLine();
  setting_widget(SettingId::loop, app.settings);
  setting_widget(SettingId::speed, app.settings, -1);
  float t = static_cast<float>(p.clock());
  const float duration = static_cast<float>(std::max(p.duration(), 0.001));
  ImGui::SetNextItemWidth(-1);
  // The frame number is the decoder's count (DecodedFrame::index): exact from the start of the
  // file, and after a seek llround(pts * frame rate), which is what a frame-accurate tool shows
  // for a constant rate; where the rate may vary that is an estimate, and says so ("~").
  const std::string frame = p.frame() ? "  frame " + frame_number_text(*p.frame()) : std::string();
  const std::string label = format_time(p.clock()) + " / " + format_time(p.duration()) + frame;
  // The time on a line of its own: inside the slider its handle covered it.
  ImGui::TextUnformatted(label.c_str());
  if (ImGui::SliderFloat("##seek", &t, 0.0f, duration, "")) p.seek(t);
}

// The bins offered go up to what the frame's depth allows; shown: the bins the frame is drawn in
// (bins_for_frame: a setting of 1024 draws an 8-bit frame in 256).
void draw_bins(App& app, const FrameStatistics& numbers, float width) {
  Settings& s = app.settings;
  const std::uint32_t max_bins = numbers.valid ? max_bins_for_bits(numbers.bits) : kMaxBins;
  const std::uint32_t drawn = numbers.valid ? bins_for_frame(s.picture.bins, numbers.bits) : s.picture.bins;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo("bins", std::to_string(drawn).c_str())) {
    for (std::uint32_t b = kMinBins; b <= max_bins; b *= 2) {
      if (ImGui::Selectable(std::to_string(b).c_str(), b == drawn)) {
        s.picture.bins = b;
        app.picture.rehistogram = true;
      }
    }
    ImGui::EndCombo();
  }
}

// The width of each of the widgets on a row whose labels (after the widgets, ImGui's way) are
// `labels`, sharing the panel's width equally; `lead`: a text before them on the row.
// `text` cut with "..." to fit `width` pixels (whole when it fits).
std::string elided(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::string out = text;
  while (!out.empty() && ImGui::CalcTextSize((out + "...").c_str()).x > width) out.pop_back();
  return out + "...";
}

// A tree node (open at first) whose heading is elided to the panel's width, all of it in a
// tooltip then; returns whether it is open (TreePop() after).
bool elided_tree_node(const char* id, const std::string& heading) {
  const float room = ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing();
  const std::string shown = elided(heading, room);
  const bool open = ImGui::TreeNodeEx(id, ImGuiTreeNodeFlags_DefaultOpen, "%s", shown.c_str());
  if (shown != heading && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", heading.c_str());
  return open;
}

float share(std::initializer_list<const char*> labels, const char* lead = nullptr) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float rest = ImGui::GetContentRegionAvail().x;
  if (lead) rest -= ImGui::CalcTextSize(lead).x + style.ItemSpacing.x;
  for (const char* label : labels) rest -= ImGui::CalcTextSize(label).x + style.ItemInnerSpacing.x;
  rest -= style.ItemSpacing.x * static_cast<float>(labels.size() - 1);
  return std::max(rest / static_cast<float>(labels.size()), 30.0f);
}

// The share of the frame's pixels whose luma is at or above (`above`) or at or below `code`, from
// the statistics histogram (one level per code up to 10 bits: exact; deeper, whole levels).
double luma_share(const FrameStatistics& numbers, std::uint32_t code, bool above, Channel c = Channel::l) {
  const Histogram& h = numbers.levels;
  const std::uint64_t total = h.total(c);
  if (h.bins == 0 || total == 0) return 0;
  const std::uint32_t level = static_cast<std::uint32_t>((std::uint64_t{code} * h.bins) >> numbers.bits);
  std::uint64_t n = 0;
  for (std::uint32_t l = above ? level : 0; l < (above ? h.bins : level + 1); ++l) n += h.at(c, l);
  return static_cast<double>(n) / static_cast<double>(total);
}

// The zebras' shares: of luma, or (zebras on R'G'B') of each channel, whose union is marked.
void draw_zebra_shares(const Settings& s, const FrameStatistics& numbers) {
  const std::uint32_t high = zebra_code(s.picture.zebra_high, numbers.bits);
  const std::uint32_t low = zebra_code(s.picture.zebra_low, numbers.bits);
  if (!s.picture.zebra_rgb) {
    // Lines, not wrapped text: ImGui may wrap after the '.' of a number.
    ImGui::Text("marked: %.2f%% luma >= %u", 100 * luma_share(numbers, high, true), high);
    ImGui::Text("        %.2f%% luma <= %u", 100 * luma_share(numbers, low, false), low);
    return;
  }
  const auto each = [&](std::uint32_t code, bool above) {
    return std::array<double, 3>{100 * luma_share(numbers, code, above, Channel::r),
                                 100 * luma_share(numbers, code, above, Channel::g),
                                 100 * luma_share(numbers, code, above, Channel::b)};
  };
  const auto hi = each(high, true), lo = each(low, false);
  ImGui::TextUnformatted("marked where any of R', G', B' is:");
  ImGui::Text("  >= %u: R' %.2f%% G' %.2f%% B' %.2f%%", high, hi[0], hi[1], hi[2]);
  ImGui::Text("  <= %u: R' %.2f%% G' %.2f%% B' %.2f%%", low, lo[0], lo[1], lo[2]);
}

// Zebras and false colour: the settings, the share of the frame's pixels each zebra marks, and
// the false-colour bands.
void draw_exposure_section(App& app, const FrameStatistics& numbers) {
  Settings& s = app.settings;
  const float third = share({"zebra", "false colour"});
  setting_widget(SettingId::zebra, s, third);
  ImGui::SameLine();
  setting_widget(SettingId::false_colour, s);
  if (s.picture.zebra != ZebraMode::off) {
    const float half = share({"", ""});
    setting_widget(SettingId::zebra_high, s, half);
    ImGui::SameLine();
    setting_widget(SettingId::zebra_low, s, half);
    setting_widget(SettingId::zebra_style, s, half);
    ImGui::SameLine();
    setting_widget(SettingId::zebra_rgb, s);
    if (numbers.valid && !numbers.ycbcr) draw_zebra_shares(s, numbers);
  }
  if (!s.picture.false_colour) return;
  const LightScale light = app.transport.player.is_open() && app.transport.player.frame()
                               ? light_scale_of(app.transport.player.frame()->colour.transfer.value)
                               : LightScale::none;
  int shown = 0;
  for (std::uint32_t band = 0; band < shader::kBandCount; ++band) {
    const std::uint32_t c = shader::vhist_band_colour(band);
    if (c == shader::kBandGrey) continue;
    if (shown++ % 2 == 1) ImGui::SameLine();
    const float lo = band == 0 ? 0.0f : static_cast<float>(shader::vhist_band_top(band - 1)) / 10.0f;
    const float hi = std::min(100.0f, static_cast<float>(shader::vhist_band_top(band)) / 10.0f);
    ImGui::ColorButton("##band", ImVec4(((c >> 16) & 0xff) / 255.0f, ((c >> 8) & 0xff) / 255.0f, (c & 0xff) / 255.0f, 1),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
    ImGui::SameLine();
    if (light != LightScale::none) {  // the bands in light (light_scale.h)
      const double from = band == 0 ? 0.0 : kHdrBandNits[band - 1];
      if (band + 1 < shader::kBandCount) {
        ImGui::Text("%g-%g nits", from, kHdrBandNits[band]);
      } else {
        ImGui::Text(">= %g nits", from);
      }
      continue;
    }
    ImGui::Text("%5.1f-%5.1f%%", static_cast<double>(lo), static_cast<double>(hi));
  }
}

// Sized for the side panel's width (260 to 420 px at scale 1): widgets share a row by equal
// parts of the width. A compact window leaves out the rows one rarely changes.
// The channel toggles and the guides' on one row.
void draw_channel_toggles(Settings& s) {
  if (s.picture.domain == Domain::ycbcr) {
    // The planes' names, as the histograms are labelled (R draws Cr, B Cb, L Y'; G has no plane),
    // not R, G, B, L.
    ImGui::Checkbox("Cr##channel_r", &s.picture.channels[0]);
    ImGui::SameLine();
    ImGui::Checkbox("Cb##channel_b", &s.picture.channels[2]);
    ImGui::SameLine();
    ImGui::Checkbox("Y'##channel_l", &s.picture.channels[3]);
  }
  for (const SettingId id :
       {SettingId::channel_r, SettingId::channel_g, SettingId::channel_b, SettingId::channel_l, SettingId::guides}) {
    const bool channel = id != SettingId::guides;
    if (s.picture.domain == Domain::ycbcr && channel) continue;
    if (id != SettingId::channel_r) ImGui::SameLine();
    setting_widget(id, s);
  }
}

void draw_histogram_section(App& app, const FrameStatistics& numbers) {
  Settings& s = app.settings;
  ImGui::Separator();
  draw_channel_toggles(s);
  if (!app.layout.compact) {
    // Four to a row where "instead" fits in each, else two rows of two: never cut to "of".
    const float quarter = share({"R", "G", "B", "L"}, "CDF");
    const float needed = ImGui::CalcTextSize("instead").x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x;
    const bool two_rows = quarter < needed;
    const float width = two_rows ? share({"R", "G"}, "CDF") : quarter;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("CDF");
    const float indent = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
    for (const SettingId id : {SettingId::cdf_r, SettingId::cdf_g, SettingId::cdf_b, SettingId::cdf_l}) {
      if (two_rows && id == SettingId::cdf_b) {
        ImGui::SetCursorPosX(indent + ImGui::GetStyle().ItemSpacing.x);
      } else {
        ImGui::SameLine();
      }
      setting_widget(id, s, width);
    }
  }
  setting_widget(SettingId::equalize, s, share({"equalize"}));
  if (s.picture.equalize != EqualizeMode::off) {
    setting_widget(SettingId::split_view, s);
    if (s.picture.split_view) {
      ImGui::SameLine();
      setting_widget(SettingId::split_position, s, -1);
    }
  }
  setting_widget(SettingId::scale, s, share({"scale", "bins"}));
  ImGui::SameLine();
  draw_bins(app, numbers, share({"bins"}));
  if (app.layout.compact) {
    // Only the marks that are on (their keys turn them on): their shares and legend.
    if (s.picture.zebra != ZebraMode::off || s.picture.false_colour) draw_exposure_section(app, numbers);
    // An HDR picture's mapping: the one setting that changes what it looks like.
    if (app.transport.player.is_open() && app.transport.player.frame() &&
        light_scale_of(app.transport.player.frame()->colour.transfer.value) != LightScale::none) {
      setting_widget(SettingId::tone_map, s);
    }
    return;
  }
  const float half = share({"layout", "palette"});
  setting_widget(SettingId::layout, s, half);
  ImGui::SameLine();
  setting_widget(SettingId::palette, s, half);
  setting_widget(SettingId::opacity, s, share({"opacity"}));
  setting_widget(SettingId::end_scale, s);
  setting_widget(SettingId::domain, s, share({"domain"}));
  draw_exposure_section(app, numbers);
  // Only a PQ or HLG source has a light scale to label the axis with.
  const LightScale light = app.transport.player.is_open() && app.transport.player.frame()
                               ? light_scale_of(app.transport.player.frame()->colour.transfer.value)
                               : LightScale::none;
  if (light != LightScale::none) {
    setting_widget(SettingId::light_axis, s, share({"light axis"}));
    // What the picture shows (the histograms count code values either way).
    setting_widget(SettingId::tone_map, s);
    const auto& colour = app.transport.player.frame()->colour;
    const std::string shown =
        hdr_display_text(light, hdr_display_for(light, s.picture.tone_map,
                                                colour.mastering ? colour.mastering->max_luminance : 0));
    text_wrapped_at_spaces("%s", shown.c_str());
    // HLG's light depends on the display: say which one the axis and the bands assume.
    if (light == LightScale::hlg) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      text_wrapped_at_spaces("HLG as shown on a %g cd/m2 display, system gamma %g (BT.2100)", kHlgPeak, kHlgGamma);
      ImGui::PopStyleColor();
    }
  }
}

// One part of the colour description as the panel lists it.
struct ProvenanceRow {
  const char* name;
  std::string_view spoken, id;  // as people say it; the identifier the records carry
  ColourSource source;
  const std::string* tag;       // the stream's own word
};

template <typename E>
ProvenanceRow provenance_row(const char* name, const ColourTag<E>& t) {
  return {name, spoken_colour(t), colour_id(t), t.source, &t.tag};
}

// Where the colour description came from, as analyze's header says it: each part's value and
// source (stream, format, assumed), and the stream's HDR metadata.
void draw_provenance(const SourceColour& c) {
  const ProvenanceRow rows[] = {provenance_row("matrix", c.matrix), provenance_row("range", c.range),
                                provenance_row("primaries", c.primaries), provenance_row("transfer", c.transfer),
                                provenance_row("chroma siting", c.chroma_location)};
  // The heading names what the numbers depend on (matrix, range, transfer) and how much of the
  // description (its first four parts) was assumed rather than read.
  int assumed_parts = 0;
  for (int i = 0; i < 4; ++i) assumed_parts += rows[i].source == ColourSource::assumed ? 1 : 0;
  const char* how = assumed_parts == 0 ? "" : assumed_parts == 4 ? " (assumed)" : " (partly assumed)";
  if (!elided_tree_node("source", "colour: " + spoken_colour_summary(c) + how)) return;
  // Each part as people say it, then where it came from and the identifier the records carry.
  for (const ProvenanceRow& row : rows) {
    const bool assumed = row.source == ColourSource::assumed;
    const std::string spoken(row.spoken), source(colour_id(row.source));
    const std::string id = row.spoken != row.id ? " " + std::string(row.id) : "";
    // Wrapped at spaces: a long row ("primaries BT.601 625-line (PAL) (stream bt470bg)") was cut
    // at the panel's edge.
    ImGui::PushStyleColor(ImGuiCol_Text, assumed ? ImVec4(1, 0.8f, 0.4f, 1) : ImVec4(0.8f, 0.8f, 0.8f, 1));
    text_wrapped_at_spaces("%s %s (%s%s%s%s)", row.name, spoken.c_str(), source.c_str(), id.c_str(),
                           assumed && !row.tag->empty() ? ", stream says " : "", assumed ? row.tag->c_str() : "");
    ImGui::PopStyleColor();
  }
  if (c.mastering) {
    text_wrapped_at_spaces("mastering display %.4g to %.5g cd/m2", c.mastering->min_luminance, c.mastering->max_luminance);
  }
  if (c.content_light) {
    text_wrapped_at_spaces("MaxCLL %u  MaxFALL %u cd/m2 (stream)", c.content_light->max_cll, c.content_light->max_fall);
  }
  ImGui::TreePop();
}

// A file with several video streams: the one shown, and a list to choose another (reopened
// from its start), as `--stream N` would.
void draw_stream_choice(App& app) {
  const media::MediaInfo& info = app.transport.player.info();
  if (app.transport.player.live() || info.video_streams.size() < 2) return;
  std::string current;
  for (const auto& s : info.video_streams) {
    if (std::atoi(s.c_str()) == info.video_stream) current = s;
  }
  ImGui::SetNextItemWidth(-1);
  if (!ImGui::BeginCombo("##stream", ("video stream " + current).c_str())) return;
  for (const auto& s : info.video_streams) {
    const int index = std::atoi(s.c_str());
    if (ImGui::Selectable(s.c_str(), index == info.video_stream) && index != info.video_stream) {
      open_file(app, app.transport.open_path, index);
    }
  }
  ImGui::EndCombo();
}

void draw_status_section(App& app) {
  Player& p = app.transport.player;
  ImGui::Separator();
  if (!p.is_open() || !p.frame()) return;
  const VideoFormat& f = p.frame()->format;
  const media::DecodeReport report = p.report();
  const SourceColour& colour = p.frame()->colour;
  text_wrapped_at_spaces("%ux%u %s %s %s %s%s", f.width, f.height, f.pixel_format.c_str(),
                         std::string(spoken_colour(colour.matrix)).c_str(),
                         std::string(range_name(f.range)).c_str(),
                         std::string(spoken_colour(colour.transfer)).c_str(),
                         p.frame()->converted ? " (via swscale)" : "");
  if (const std::string decoder = decoder_line(app); !decoder.empty()) text_wrapped_at_spaces("%s", decoder.c_str());
  draw_provenance(colour);
  draw_stream_choice(app);
  if (f.rotation != 0 || f.display_width() != f.width || f.display_height() != f.height) {
    // Only what makes the shown size differ: "rotated 0°" on an anamorphic clip said nothing.
    const bool square = f.sar_num == f.sar_den || f.sar_num == 0 || f.sar_den == 0;
    char rotated[32] = "", aspect[48] = "";
    if (f.rotation != 0) std::snprintf(rotated, sizeof rotated, "rotated %u°%s", f.rotation, square ? "" : ", ");
    if (!square) std::snprintf(aspect, sizeof aspect, "sample aspect %u:%u", f.sar_num, f.sar_den);
    text_wrapped_at_spaces("shown %ux%u (%s%s)", f.display_width(), f.display_height(), rotated, aspect);
  }
  // The video's rate (frames shown a second), not redraws: a paused picture is not redrawn.
  char rate[32] = "paused";
  if (!p.paused()) std::snprintf(rate, sizeof rate, "%.1f fps", app.transport.video_fps);
  // The times of decode, upload, histograms and draw are on the stats page (i), as in mpv.
  text_wrapped_at_spaces("%s  dropped %lld  engine %s  (i: times)", rate, static_cast<long long>(p.dropped()),
                         app.decoding.engine_name);
  if (report.lost > 0 || report.damaged > 0 || report.errors > 0) {
    ImGui::TextColored(ImVec4(1, 0.7f, 0.2f, 1), "corrupt data: %lld lost, %lld damaged, %lld decoder errors",
                       static_cast<long long>(report.lost), static_cast<long long>(report.damaged),
                       static_cast<long long>(report.errors));
  }
}

// What the statistics describe when a region of interest is set.
void draw_region_line(const Pointer& pointer, const FrameStatistics& numbers) {
  if (!pointer.region) return;
  const PixelRect& r = *pointer.region;
  if (numbers.ycbcr) {
    ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "region %u,%u %ux%u: not applied to the Y'CbCr planes", r.x, r.y,
                       r.width, r.height);
    return;
  }
  ImGui::TextColored(ImVec4(1, 0.86f, 0, 1), "region %u,%u %ux%u (%u pixels; R clears)", r.x, r.y, r.width, r.height,
                     numbers.width * numbers.height);
}

}  // namespace

std::string frame_number_text(const media::DecodedFrame& frame) {
  return (frame.index_exact ? "" : "~") + std::to_string(frame.index);
}

std::string format_time(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  const auto total_ms = static_cast<long long>(std::llround(seconds * 1000));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld.%03lld", total_ms / 60000, (total_ms / 1000) % 60, total_ms % 1000);
  return buf;
}

void draw_panel(App& app, const FrameStatistics& numbers) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - app.layout.panel_width, 0));
  ImGui::SetNextWindowSize(ImVec2(app.layout.panel_width, display.y));
  ImGui::SetNextWindowBgAlpha(1.0f);  // the panel's side is the UI's: nothing is drawn under it
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  // The title bar's close button collapses the panel to its tab, as Tab does.
  if (!ImGui::Begin("vhist  (Tab hides)", &app.settings.show_panel, flags)) {
    ImGui::End();
    return;
  }
  draw_file_section(app);
  if (app.transport.player.is_open() && app.transport.player.live()) draw_camera_section(app.transport.player);
  if (app.transport.player.is_open() && !app.transport.player.live()) draw_playback_section(app);
  draw_histogram_section(app, numbers);
  draw_scopes_section(app, numbers);
  draw_status_section(app);
  if (app.transport.player.is_open()) draw_fit_line(app);
  draw_timeline_section(app);
  if (app.layout.compact) {  // of the rest, what a key has set: the region and the reference
    draw_region_line(app.pointer, numbers);
    if (app.reference.kept) draw_reference_section(app, numbers);
    ImGui::End();
    return;
  }
  draw_region_line(app.pointer, numbers);
  draw_stats_table(numbers);
  draw_source_measures(app, numbers);
  ImGui::Separator();
  draw_reference_section(app, numbers);
  ImGui::Separator();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("Keys (vhist --help lists them all):");
  ImGui::PopStyleColor();
  ImGui::TextWrapped("Space play  Left/Right 5 s  Up/Down 60 s  wheel 10 s  , . frame  [ ] speed  1-4 channels  "
                     "G guides  C cdf  E equalize  V split  W P O scopes  B their place  S screenshot  F full  I stats  Esc close/leave full  "
                     "T timeline  PgUp/PgDn events  Q quit  drag: region  R clear region  K reference  M match");
  ImGui::End();
}

void same_line_if_room(float width) {
  const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

void draw_split(App& app) {
  const Settings& s = app.settings;
  ImGuiIO& io = ImGui::GetIO();
  // The divider is at split_position of the picture area's width (the panel is not picture).
  const float left = app.layout.picture_area[0], width = app.layout.picture_area[2] - app.layout.picture_area[0];
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const char* name = matching(app, false)                       ? "matched to the reference"
                     : s.picture.equalize == EqualizeMode::luma ? "equalized (luma)"
                                                                : "equalized (per channel)";
  // Below the HDR label where there is one (it was written over "equalized (luma)").
  const float top = std::max(app.layout.label_area[1] + (app.layout.label_area[3] - app.layout.label_area[1]) * 0.02f,
                             app.layout.top_labels_from);
  // White on a dark box, readable over any picture.
  const auto label = [draw](ImVec2 at, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    draw->AddRectFilled(ImVec2(at.x - 4, at.y - 2), ImVec2(at.x + size.x + 4, at.y + size.y + 2), IM_COL32(0, 0, 0, 150), 3);
    draw->AddText(at, IM_COL32(255, 255, 255, 230), text);
  };
  if (!s.picture.split_view) {
    label(ImVec2(left + width - ImGui::CalcTextSize(name).x - 12, top), name);
    return;
  }
  const float x = left + s.picture.split_position * width;
  const bool near = std::abs(io.MousePos.x - x) <= 6.0f;
  if (!io.WantCaptureMouse && near && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) app.pointer.dragging_divider = true;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) app.pointer.dragging_divider = false;
  if (app.pointer.dragging_divider && width > 0) {
    app.settings.picture.split_position = std::clamp((io.MousePos.x - left) / width, 0.0f, 1.0f);
  }
  if (app.pointer.dragging_divider || (near && !io.WantCaptureMouse)) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  // Each label on its side of the divider, elided to the room between the divider and the
  // picture's edge (near an edge "equalized (luma)" ran under the panel).
  const std::string before = elided("original", x - left - 18), after = elided(name, left + width - x - 18);
  if (before.size() > 3) label(ImVec2(x - ImGui::CalcTextSize(before.c_str()).x - 10, top), before.c_str());
  if (after.size() > 3) label(ImVec2(x + 10, top), after.c_str());
}

}  // namespace vhist::viewer
