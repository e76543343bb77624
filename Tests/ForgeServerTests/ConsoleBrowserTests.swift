import ForgeServer
import LocalAppStore
import Foundation
import TestSupport
import XCTest

/// The console (`GET /forge/console`) in a real browser: headless Chromium driven by
/// Selenium (Debian's `chromium` and `chromium-driver`, `selenium` pinned in the oracle
/// venv). The page loads the store, a purchase through its form appears among the
/// subscriptions and transactions, a click on "+31 days" renews it (a RENEWAL
/// transaction, a `renewed` event), a bad request is explained, and the request journal
/// shows the page's own requests. A screenshot is written where FORGE_CONSOLE_SCREENSHOT
/// says (docs/console.png was made so).
@available(macOS 14, iOS 17, tvOS 17, *)
final class ConsoleBrowserTests: XCTestCase {
    func testBuyMoveTheClockAndSeeTheRenewalInChromium() async throws {
        try PythonOracle.require(module: "selenium")
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile)
        let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first(where: FileManager.default.isExecutableFile)
        guard let chromium, let driver else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("no chromium or chromedriver (.ci/run installs them)") }
            throw XCTSkip("no chromium or chromedriver (apt-get install chromium chromium-driver)")
        }
        var options = ServeOptions()
        options.stores = LocalAppStores(StoreConfiguration(customers: 0))
        let run = try await ServerHarness.with(options) { server in
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    var environment = ProcessInfo.processInfo.environment
                    environment["HOME"] = FileManager.default.temporaryDirectory.path
                    continuation.resume(with: Result {
                        try ChildProcess.run(PythonOracle.executable,
                                             PythonOracle.arguments(["-c", Self.script, server.base, chromium, driver,
                                                                     environment["FORGE_CONSOLE_SCREENSHOT"] ?? ""]),
                                             environment: environment, deadline: .seconds(240))
                    })
                }
            }
        }
        XCTAssertEqual(run.status, 0, run.standardError + run.standardOutput)
        XCTAssertEqual(run.standardOutput.split(separator: "\n"), [
            "page: Local App Store, production",
            "bought: buyProduct: done",
            "subscription row: console com.example.receiptforge.subscription.monthly active",
            "renewed: RENEWAL",
            "event: renewed",
            "refused: buyProduct: productId",
            "journal: POST /forge/v1/buyProduct control buyProduct 400",
            "sandbox: Local App Store, sandbox, 0 subscriptions",
        ], run.standardError)
    }

    /// Prints one line per step; any failure raises (and the status is not 0).
    static let script = #"""
import sys
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait, Select

base, chromium, driver_path, screenshot = sys.argv[1:5]
options = webdriver.ChromeOptions()
options.binary_location = chromium
for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
    options.add_argument(flag)
browser = webdriver.Chrome(service=Service(driver_path), options=options)
# The page replaces its tables' rows on every refresh: a row read while that happens is
# stale, and the wait polls again.
wait = WebDriverWait(browser, 30, ignored_exceptions=[StaleElementReferenceException])

def rows(table):
    return [[c.text for c in r.find_elements(By.TAG_NAME, "td")]
            for r in browser.find_elements(By.CSS_SELECTOR, "#" + table + " tbody tr")]

def first(table, match):
    return wait.until(lambda b: [r for r in rows(table) if match(r)] or False)[0]

try:
    browser.get(base + "/forge/console")
    wait.until(lambda b: b.find_element(By.ID, "now").text not in ("", "…"))
    print("page:", browser.find_element(By.TAG_NAME, "h1").text + ",", browser.find_element(By.CSS_SELECTOR, "nav a.current").text)

    customer = browser.find_element(By.ID, "buy-customer")
    customer.clear(); customer.send_keys("console")
    Select(browser.find_element(By.ID, "buy-product")).select_by_value("com.example.receiptforge.subscription.monthly")
    browser.find_element(By.ID, "buy-submit").click()
    wait.until(lambda b: "done" in b.find_element(By.ID, "message").text)
    print("bought:", browser.find_element(By.ID, "message").text.split(" (")[0])
    row = first("subscriptions", lambda r: r[1] == "console")
    print("subscription row:", row[1], row[2], row[3])

    browser.find_element(By.ID, "advance-month").click()
    print("renewed:", first("transactions", lambda r: r[2] == "console" and r[4] == "RENEWAL")[4])
    print("event:", first("events", lambda r: r[3] == "console" and r[2] == "renewed")[2])

    browser.execute_script("document.getElementById('buy-product').add(new Option('no.such.product', 'no.such.product'), 0);"
                           "document.getElementById('buy-product').value = 'no.such.product';")
    browser.find_element(By.ID, "buy-submit").click()
    wait.until(lambda b: "error" in b.find_element(By.ID, "message").get_attribute("class"))
    text = browser.find_element(By.ID, "message").text
    print("refused:", text.split(":")[0] + ":", text.split(": ")[1])
    row = first("requests", lambda r: r[4] == "400")
    print("journal:", row[1], row[2], row[3], row[4])
    if screenshot:
        browser.save_screenshot(screenshot)

    browser.find_element(By.ID, "env-sandbox").click()
    wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "nav a.current").text == "sandbox"
               and b.find_element(By.ID, "now").text not in ("", "…"))
    print("sandbox:", browser.find_element(By.TAG_NAME, "h1").text + ",", "sandbox,",
          browser.find_element(By.ID, "subscription-count").text.strip("()"), "subscriptions")
finally:
    browser.quit()
"""#
}
