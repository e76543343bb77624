// The figure of `scripts/bench bignum --svg FILE`: time per call against operand size,
// one line per path, one panel per kernel (the 2014 study's figure, per ISA level).
import BigNum
import Foundation

enum BigNumFigure {
    static let colors: [BigNum.Path: String] = [
        .scalar: "#444444", .adx: "#ff7f0e", .sse2: "#1f77b4", .avx2: "#d62728", .avx512: "#2ca02c", .ifma: "#9467bd",
    ]

    /// panels: (title, x-axis unit, path → [(size, ns)]).
    static func svg(panels: [(String, String, [BigNum.Path: [(Int, Double)]])]) -> String {
        let width = 480.0, height = 340.0, left = 64.0, right = 16.0, top = 36.0, bottom = 48.0
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width) * panels.count)" height="\(Int(height))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        for (index, (title, unit, curves)) in panels.enumerated() {
            let x0 = Double(index) * width
            let maxSize = Double(curves.values.flatMap { $0.map(\.0) }.max() ?? 1)
            let maxTime = curves.values.flatMap { $0.map(\.1) }.max() ?? 1
            let plotWidth = width - left - right, plotHeight = height - top - bottom
            func px(_ size: Double) -> Double { x0 + left + plotWidth * size / maxSize }
            func py(_ ns: Double) -> Double { top + plotHeight * (1 - ns / maxTime) }
            out += "<text x=\"\(x0 + width / 2)\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">\(title)</text>\n"
            out += "<line x1=\"\(px(0))\" y1=\"\(py(0))\" x2=\"\(px(maxSize))\" y2=\"\(py(0))\" stroke=\"black\"/>\n"
            out += "<line x1=\"\(px(0))\" y1=\"\(py(0))\" x2=\"\(px(0))\" y2=\"\(py(maxTime))\" stroke=\"black\"/>\n"
            for tick in 0...4 {
                let size = maxSize * Double(tick) / 4, ns = maxTime * Double(tick) / 4
                out += "<text x=\"\(px(size))\" y=\"\(py(0) + 16)\" text-anchor=\"middle\">\(Int(size.rounded()))</text>\n"
                out += "<text x=\"\(px(0) - 6)\" y=\"\(py(ns) + 4)\" text-anchor=\"end\">\(formatDuration(ns))</text>\n"
                out += "<line x1=\"\(px(0))\" y1=\"\(py(ns))\" x2=\"\(px(maxSize))\" y2=\"\(py(ns))\" stroke=\"#dddddd\"/>\n"
            }
            out += "<text x=\"\(x0 + left + plotWidth / 2)\" y=\"\(height - 12)\" text-anchor=\"middle\">\(unit)</text>\n"
            for (row, path) in BigNum.Path.allCases.filter({ curves[$0] != nil }).enumerated() {
                let points = curves[path]!.map { "\(px(Double($0.0))),\(py($0.1))" }.joined(separator: " ")
                let color = colors[path] ?? "black"
                out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
                let legendY = top + 8 + 16 * Double(row)
                out += "<line x1=\"\(px(0) + 12)\" y1=\"\(legendY)\" x2=\"\(px(0) + 32)\" y2=\"\(legendY)\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
                out += "<text x=\"\(px(0) + 38)\" y=\"\(legendY + 4)\">\(path.rawValue)</text>\n"
            }
        }
        return out + "</svg>\n"
    }
}
