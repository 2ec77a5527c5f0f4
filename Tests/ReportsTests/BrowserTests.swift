import Accuracy
import EventPipeline
import Fences
import Foundation
import Geotriggers
import Scenarios
import Spatial
import Support
import Testing
import Traces

@testable import Reports

/// Loads a page in headless Chromium with a test script appended (allowed by its own hash, the
/// page's policy otherwise unchanged), which acts on the page and writes what it saw into
/// `<pre id="fs-test">` as JSON; the DOM is dumped once the page is idle.
enum Browser {
    struct Run {
        var results: [String: Any]
        /// Chromium's log (console messages, refused loads, network errors).
        var log: String
        var dom: String
    }

    static func load(_ html: String, testScript: String, name: String = "page.html") throws -> Run {
        // The script may set `out.wait` and call `finish()` later (after a timer).
        let wrapped =
            "(function(){var out={};function finish(){var pre=document.createElement('pre');pre.id='fs-test';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);}"
            + "try{" + testScript + "}catch(e){out.exception=String(e&&e.stack||e);out.wait=false;}if(!out.wait)finish();})();"
        let hash = "'sha256-\(SHA256.base64Digest(wrapped))'"
        guard html.contains("script-src 'sha256-") else { throw Failure("the page allows no script by its hash") }
        var page = html.replacingOccurrences(of: "script-src 'sha256-", with: "script-src \(hash) 'sha256-")
        guard let end = page.range(of: "</body>", options: .backwards) else { throw Failure("no </body>") }
        page.replaceSubrange(end, with: "<script>\(wrapped)</script></body>")
        let dir = try ReportTests.temporaryDirectory()
        let url = dir.appendingPathComponent(name)
        try page.write(to: url, atomically: true, encoding: .utf8)
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--user-data-dir=\(dir.appendingPathComponent("profile").path)",
            "--enable-logging=stderr", "--v=1", "--window-size=1280,900", "--virtual-time-budget=3000",
        ]
        let run = try ReportTests.runChromium(common + ["--dump-dom", url.absoluteString])
        guard run.status == 0 else { throw Failure("chromium exited \(run.status): \(run.stderr.suffix(1500))") }
        guard let start = run.stdout.range(of: "<pre id=\"fs-test\">"),
            let stop = run.stdout.range(of: "</pre>", range: start.upperBound..<run.stdout.endIndex)
        else {
            throw Failure("the test script left no result: \(run.stderr.suffix(1500))")
        }
        let text = String(run.stdout[start.upperBound..<stop.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
                of: "&amp;", with: "&")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        if let keep = ProcessInfo.processInfo.environment["FENCESIM_BROWSER_KEEP"] {
            // For a person checking the design: the page, what the script saw, and a screenshot.
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try? page.write(toFile: "\(keep)/\(name)", atomically: true, encoding: .utf8)
            try? text.write(toFile: "\(keep)/\(name).json", atomically: true, encoding: .utf8)
            _ = try? ReportTests.runChromium(common + ["--hide-scrollbars", "--screenshot=\(keep)/\(name).png", url.absoluteString])
        }
        return Run(results: object, log: run.stderr, dom: run.stdout)
    }

    /// Lines of the log that show the page misbehaving: console messages, refused loads,
    /// network errors and requests for anything but the page itself.
    static func problems(_ log: String, page: String = "page.html") -> [String] {
        log.split(separator: "\n").map(String.init).filter { line in
            if line.contains("Refused to") || line.contains(":CONSOLE") { return true }
            // Chromium's own sign-in fetcher (google_apis/) fails to resolve names offline.
            if line.contains("net::ERR_") && !line.contains("google_apis/") { return true }
            return false
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The `viewBox` of an element in a DOM dump.
    static func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }
}

@Suite(
    .enabled(
        if: ReportTests.chromium != nil, "chromium is not on PATH: run `make setup-browser` to test the report's map in a real browser"),
    .timeLimit(.minutes(3)))
struct MapBrowserTests {
    /// Wheel, keys and buttons move the map's viewBox; a fence row zooms to the fence and
    /// highlights it and its events; a timeline bar does too; the timeline zooms.
    @Test func mapPansZoomsAndFocusesFences() throws {
        let report = try ReportTests.report(degradation: Degradation(resampleSeconds: 2, noise: 0.3, exitLoss: 0.2, seed: 8))
        let html = ReportHTML.render(report)
        let script = """
            var map=document.getElementById('map');var r=map.getBoundingClientRect();
            function vb(){return map.getAttribute('viewBox');}
            out.initial=vb();
            map.dispatchEvent(new WheelEvent('wheel',{deltaY:-400,clientX:r.left+r.width/2,clientY:r.top+r.height/2,bubbles:true,cancelable:true}));
            out.wheel=vb();
            document.querySelector('.mapctl button[data-zoom="fit"]').click();out.fit=vb();
            map.dispatchEvent(new KeyboardEvent('keydown',{key:'+',bubbles:true,cancelable:true}));out.key=vb();
            map.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowRight',bubbles:true,cancelable:true}));out.pan=vb();
            document.querySelector('.mapctl button[data-zoom="out"]').click();out.out=vb();
            var row=document.querySelector('#table-fence tbody tr[data-fence="f3"]');row.click();
            out.rowFocus=map.getAttribute('data-focus');out.rowView=vb();
            var g=map.querySelector('g.f[data-fence="f3"]');out.box=g.getAttribute('data-box');out.fenceHighlighted=g.classList.contains('hl');
            out.rowHighlighted=row.classList.contains('hl');
            out.markersHighlighted=map.querySelectorAll('.mk.hl').length;out.markersOther=map.querySelectorAll('.mk[data-fence="f4"].hl').length;
            out.tiny=map.querySelectorAll('g.f.tiny').length;
            var bar=document.querySelector('svg.timeline-svg rect[data-fence="f7"]');bar.dispatchEvent(new MouseEvent('click',{bubbles:true}));
            out.barFocus=map.getAttribute('data-focus');
            // A fence clicked on the map itself; Esc clears the focus.
            map.querySelector('g.f[data-fence="f5"] .fence').dispatchEvent(new MouseEvent('click',{bubbles:true}));out.mapFocus=map.getAttribute('data-focus');
            map.dispatchEvent(new KeyboardEvent('keydown',{key:'Escape',bubbles:true,cancelable:true}));out.cleared=map.getAttribute('data-focus')===null&&document.querySelectorAll('.hl').length===0;
            var tl=document.querySelector('svg.timeline-svg');out.window0=tl.getAttribute('data-window');var tr=tl.getBoundingClientRect();
            tl.dispatchEvent(new WheelEvent('wheel',{deltaY:-500,clientX:tr.left+tr.width*0.6,clientY:tr.top+tr.height/2,bubbles:true,cancelable:true}));
            out.window1=tl.getAttribute('data-window');
            out.scale=document.querySelector('svg.overlay g.scalebar').getAttribute('data-meters');
            out.graticule=map.querySelectorAll('g.graticule text').length;
            out.labelsShown=map.querySelectorAll('text.fence-label:not(.hidden)').length;
            var key=document.querySelector('.mapctl button[data-zoom="legend"]'),legend=document.querySelector('svg.overlay .legend');
            out.legendShown=legend.getBoundingClientRect().width>0;key.click();out.legendHidden=legend.getBoundingClientRect().width===0;key.click();
            // Zoomed far out: the 12 m fences become dots, and the labels left (made long here, as
            // real store names are) do not overlap.
            map.querySelectorAll('text.fence-label').forEach(function(t){t.textContent='a rather long store name '+t.textContent;});
            document.querySelector('.mapctl button[data-zoom="all"]').click();
            for(var i=0;i<4;i++)document.querySelector('.mapctl button[data-zoom="out"]').click();
            out.tinyOut=map.querySelectorAll('g.f.tiny').length;out.fences=map.querySelectorAll('g.f').length;
            var shown=Array.prototype.slice.call(map.querySelectorAll('text.fence-label:not(.hidden)')).map(function(t){return t.getBoundingClientRect();});
            out.labelsOut=shown.length;out.labelsHidden=map.querySelectorAll('text.fence-label.hidden').length;out.overlaps=0;
            for(var a=0;a<shown.length;a++)for(var b=a+1;b<shown.length;b++){var p=shown[a],q=shown[b];if(p.left<q.right&&q.left<p.right&&p.top<q.bottom&&q.top<p.bottom)out.overlaps++;}
            // Tables fit the page at 1280 pixels: nothing makes the page scroll sideways.
            out.pageWidth=document.documentElement.scrollWidth;out.viewport=window.innerWidth;
            // The wide visits table scrolls inside its card, its first column staying put.
            var sc=document.getElementById('table-visits').parentNode;out.tableWider=sc.scrollWidth>sc.clientWidth;
            var cell=document.querySelector('#table-visits tbody td'),x0=cell.getBoundingClientRect().left;sc.scrollLeft=200;
            out.scrolled=sc.scrollLeft;out.firstColumnMoved=Math.abs(cell.getBoundingClientRect().left-x0);
            var other=document.querySelector('#table-visits tbody td:nth-child(3)');out.otherMoved=other.getBoundingClientRect().left;sc.scrollLeft=0;out.otherMoved-=other.getBoundingClientRect().left;
            """
        let run = try Browser.load(html, testScript: script, name: "report-map.html")
        let r = run.results
        #expect(r["exception"] == nil, "\(r["exception"] ?? "")")
        func width(_ key: String) -> Double? {
            (r[key] as? String).flatMap { Double($0.split(separator: " ")[2]) }
        }
        #expect(r["initial"] as? String == "0 0 960 600")
        #expect((width("wheel") ?? 960) < 960, "wheel: \(r["wheel"] ?? "")")
        #expect(r["fit"] as? String == "0 0 960 600")
        #expect((width("key") ?? 960) < 960)
        #expect(r["pan"] as? String != r["key"] as? String)
        #expect((width("out") ?? 0) > (width("key") ?? 0))
        // The row zoomed to f3: the view holds its box and is at most a few times its size.
        #expect(r["rowFocus"] as? String == "f3")
        let view = try #require((r["rowView"] as? String)?.split(separator: " ").compactMap { Double($0) })
        let box = try #require((r["box"] as? String)?.split(separator: " ").compactMap { Double($0) })
        #expect(view[0] <= box[0] && view[1] <= box[1] && view[0] + view[2] >= box[2] && view[1] + view[3] >= box[3], "\(view) \(box)")
        #expect(view[2] < 960 / 3, "\(view)")
        #expect(r["fenceHighlighted"] as? Bool == true && r["rowHighlighted"] as? Bool == true)
        #expect((Browser.number(r["markersHighlighted"]) ?? 0) > 0)
        #expect(Browser.number(r["markersOther"]) == 0)
        #expect(r["barFocus"] as? String == "f7")
        #expect(r["mapFocus"] as? String == "f5" && r["cleared"] as? Bool == true, "\(r)")
        #expect(r["window0"] as? String != r["window1"] as? String, "\(r["window0"] ?? "") \(r["window1"] ?? "")")
        #expect(r["scale"] != nil && (Browser.number(r["graticule"]) ?? 0) > 0)
        #expect((Browser.number(r["labelsShown"]) ?? 0) > 0)
        #expect(r["legendShown"] as? Bool == true && r["legendHidden"] as? Bool == true)
        #expect(Browser.number(r["tinyOut"]) == Browser.number(r["fences"]) && (Browser.number(r["fences"]) ?? 0) == 10, "\(r)")
        #expect((Browser.number(r["labelsOut"]) ?? 0) >= 1 && (Browser.number(r["labelsHidden"]) ?? 0) >= 1, "\(r)")
        #expect(Browser.number(r["overlaps"]) == 0)
        #expect((Browser.number(r["pageWidth"]) ?? 9999) <= (Browser.number(r["viewport"]) ?? 0), "\(r)")
        #expect(r["tableWider"] as? Bool == true && (Browser.number(r["scrolled"]) ?? 0) > 0, "\(r)")
        #expect(Browser.number(r["firstColumnMoved"]) == 0, "\(r)")
        #expect(abs((Browser.number(r["otherMoved"]) ?? 0) + (Browser.number(r["scrolled"]) ?? 0)) < 1, "\(r)")
        #expect(Browser.problems(run.log).isEmpty, "\(Browser.problems(run.log))")
    }

    /// Without --basemap nothing is requested; with it, tiles are asked of that host only (the
    /// page says so) and the policy allows nothing else.
    @Test func basemapRelaxesThePolicyToItsHostOnly() throws {
        let report = try ReportTests.report()
        let plain = ReportHTML.render(report)
        #expect(!plain.contains("img-src") && !plain.contains("data-tiles=\""))
        let template = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png"
        let html = ReportHTML.render(report, basemap: template)
        #expect(html.contains("img-src http://127.0.0.1:9\""))
        #expect(html.contains("loads map tiles from http://127.0.0.1:9"))
        let run = try Browser.load(
            html,
            testScript:
                "out.tiles=document.querySelectorAll('#map g.basemap image').length;out.href=(document.querySelector('#map g.basemap image')||{getAttribute:function(){return ''}}).getAttribute('href');"
        )
        #expect((Browser.number(run.results["tiles"]) ?? 0) > 0)
        #expect((run.results["href"] as? String)?.hasPrefix("http://127.0.0.1:9/tiles/") == true)
        // Tiles were requested (and failed: nothing listens on port 9), and nothing was refused.
        #expect(!run.log.contains("Refused to"))
        let plainRun = try Browser.load(plain, testScript: "out.tiles=document.querySelectorAll('#map g.basemap image').length;")
        #expect(Browser.number(plainRun.results["tiles"]) == 0)
        #expect(Browser.problems(plainRun.log).isEmpty, "\(Browser.problems(plainRun.log))")
        #expect(!plainRun.log.contains("127.0.0.1:9"))
    }
}

@Suite struct PagePolicyTests {
    /// The page's one script is the one its policy allows: change a byte of the script and the
    /// browser would refuse it.
    @Test func policyHashesTheInlineScript() throws {
        let html = ReportHTML.render(try ReportTests.report())
        let open = try #require(html.range(of: "<script>"))
        let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
        let script = String(html[open.upperBound..<close.lowerBound])
        #expect(html.contains("script-src 'sha256-\(SHA256.base64Digest(script))'"))
        #expect(!html.contains("'unsafe-inline'; script-src 'unsafe-inline'") && !html.contains("script-src 'unsafe-inline'"))
        #expect(html.components(separatedBy: "<script").count == 2)
    }

    @Test(
        arguments: [
            ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org"),
            ("https://{s}.tile.example.com:8443/a/{z}/{x}/{y}@2x.png?key=1", "https://*.tile.example.com:8443"),
            ("ftp://tiles/{z}/{x}/{y}", nil), ("https://tile.openstreetmap.org/{z}/{x}.png", nil), ("https://a b/{z}/{x}/{y}", nil),
        ] as [(String, String?)])
    func basemapHosts(template: String, host: String?) {
        #expect(MapTemplate.host(template) == host)
    }
}

@Suite struct ReportCardTests {
    /// Lost exits and flaps are on the cards, and missed visits say why.
    @Test func cardsShowLostExitsFlapsAndMissReasons() throws {
        let report = try ReportTests.report(degradation: Degradation(noise: 0.5, exitLoss: 0.3, seed: 3))
        let o = report.summary.overall
        #expect(o.exitsMissed > 0 && o.missed > 0)
        let html = ReportHTML.render(report)
        #expect(html.contains("<div class=\"k\">exits lost</div><div class=\"v\">\(o.exitsMissed)</div>"))
        #expect(html.contains("<div class=\"k\">flaps</div><div class=\"v\">\(o.flaps)</div>"))
        let undetected = report.visits.filter { !$0.detected && $0.missReason != .gap && $0.missReason != .entryLoss }.count
        #expect(
            html.contains(
                "<div class=\"k\">missed visits</div><div class=\"v\">\(o.missed)</div><div class=\"d\">gap \(o.missedInGap) · undetected \(undetected) · lost notification 0</div>"
            ))
        #expect(html.contains("<td>gap (fence between fixes)</td>"))
        // Rows of the visits table name their fence, for the map.
        #expect(html.contains("<tr data-fence=\"\(report.visits[0].truth.fenceID)\">"))
    }
}

@Suite(
    .enabled(
        if: ReportTests.chromium != nil, "chromium is not on PATH: run `make setup-browser` to test the replay view in a real browser"),
    .timeLimit(.minutes(3)))
struct ReplayViewBrowserTests {
    static func page(degradation: Degradation?, in folder: URL) throws -> String {
        let (fences, traces, frame) = try ReportTests.drives(in: folder)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let evaluator = Evaluator(
            Evaluator.Configuration(
                replay: Replayer.Configuration(fences: fences, frame: frame, settings: settings, workers: 1), degradation: degradation,
                trackPointLimit: 1_000_000))
        let evaluations = try evaluator.run([traces[0]])
        let report = AccuracyReport(
            evaluations: evaluations, fences: fences, title: "row", generator: "fencesim test", truth: "clean trace",
            degradation: degradation)
        return ReplayView.render(report, events: evaluations[0].outcome.events)
    }

    /// The slider moves the device to the fix at that time; an event clicked sets the time to
    /// it and its fence turns "inside"; play advances the clock; nothing is logged or loaded.
    @Test func sliderMovesTheDeviceToTheFixAtThatTime() throws {
        let folder = try ReportTests.temporaryDirectory()
        let html = try Self.page(degradation: Degradation(resampleSeconds: 3, noise: 0.5, seed: 4), in: folder)
        // Deterministic bytes for the same inputs.
        #expect(try Self.page(degradation: Degradation(resampleSeconds: 3, noise: 0.5, seed: 4), in: folder) == html)
        let script = """
            var data=JSON.parse(document.getElementById('replay-data').textContent);var s=document.getElementById('slider');
            var dev=document.getElementById('device');var k=Math.floor(data.feed.length/2);
            s.value=String(data.feed[k][0]+0.5);s.dispatchEvent(new Event('input',{bubbles:true}));
            out.fix=data.feed[k];out.cx=+dev.getAttribute('cx');out.cy=+dev.getAttribute('cy');out.disc=+document.getElementById('disc').getAttribute('r');
            out.truth=!!document.getElementById('device-truth');
            var li=document.querySelector('#events li[data-type="enter"]');out.enterFence=li.getAttribute('data-fence');out.enterT=+li.getAttribute('data-t');
            li.click();out.clock=document.getElementById('clock').textContent;out.slider=+s.value;out.current=li.classList.contains('current');
            out.inside=document.querySelector('#map g.f[data-fence="'+out.enterFence+'"]').classList.contains('inside');
            out.insideCount=document.querySelectorAll('#map g.f.inside').length;
            s.value='0';s.dispatchEvent(new Event('input',{bubbles:true}));out.insideAtStart=document.querySelectorAll('#map g.f.inside').length;
            // The list follows the time: made short here, it scrolls to the last event at the end and back at the start.
            var list=document.getElementById('events');list.style.maxHeight='80px';
            s.value=s.max;s.dispatchEvent(new Event('input',{bubbles:true}));out.scrollEnd=list.scrollTop;
            var lastLi=list.lastElementChild.getBoundingClientRect(),box=list.getBoundingClientRect();out.lastVisible=lastLi.top>=box.top-1&&lastLi.bottom<=box.bottom+1;
            s.value='0';s.dispatchEvent(new Event('input',{bubbles:true}));out.scrollStart=list.scrollTop;
            var m=document.getElementById('map');m.dispatchEvent(new WheelEvent('wheel',{deltaY:-300,clientX:m.getBoundingClientRect().left+50,clientY:m.getBoundingClientRect().top+50,bubbles:true,cancelable:true}));
            out.viewBox=m.getAttribute('viewBox');
            // Zoomed in, the map follows the device to the end of the drive.
            var last=data.feed[data.feed.length-1];s.value=s.max;s.dispatchEvent(new Event('input',{bubbles:true}));
            var v=m.getAttribute('viewBox').split(' ').map(Number);out.followed=last[1]>=v[0]&&last[1]<=v[0]+v[2]&&last[2]>=v[1]&&last[2]<=v[1]+v[3];out.followedWidth=v[2];
            document.getElementById('follow').click();s.value='0';s.dispatchEvent(new Event('input',{bubbles:true}));
            var v2=m.getAttribute('viewBox').split(' ').map(Number);out.stayed=Math.abs(v2[0]-v[0])<0.01;
            document.getElementById('play').click();out.wait=true;
            setTimeout(function(){out.played=+document.getElementById('slider').value;out.playLabel=document.getElementById('play').textContent;finish();},1500);
            """
        let run = try Browser.load(html, testScript: script, name: "replay.html")
        let r = run.results
        #expect(r["exception"] == nil, "\(r["exception"] ?? "")")
        let fix = try #require(r["fix"] as? [Double])
        #expect(Browser.number(r["cx"]) == fix[1] && Browser.number(r["cy"]) == fix[2], "\(r)")
        #expect((Browser.number(r["disc"]) ?? 0) > 0)
        #expect(r["truth"] as? Bool == true)
        #expect(Browser.number(r["slider"]) == Browser.number(r["enterT"]))
        #expect(r["current"] as? Bool == true && r["inside"] as? Bool == true)
        #expect(Browser.number(r["insideCount"]) == 1 && Browser.number(r["insideAtStart"]) == 0)
        #expect(
            (Browser.number(r["scrollEnd"]) ?? 0) > 0 && r["lastVisible"] as? Bool == true && Browser.number(r["scrollStart"]) == 0, "\(r)")
        #expect(r["viewBox"] as? String != "0 0 960 600")
        #expect(r["followed"] as? Bool == true && (Browser.number(r["followedWidth"]) ?? 960) < 960 && r["stayed"] as? Bool == true, "\(r)")
        #expect((Browser.number(r["played"]) ?? 0) > 0, "\(r)")
        #expect(Browser.problems(run.log).isEmpty, "\(Browser.problems(run.log))")
        for attribute in ["src=", "href=", "url("] { #expect(!html.contains(attribute), "found \(attribute)") }
        #expect(!html.contains("http://") && !html.contains("https://"))
    }
}

@Suite(
    .enabled(
        if: ReportTests.chromium != nil,
        "chromium is not on PATH: run `make setup-browser` to test the report's timelines in a real browser"),
    .timeLimit(.minutes(3)))
struct TimelineBrowserTests {
    /// Three days with a 2-minute and a 1-hour visit each day: at first the axis counts days and
    /// the 2-minute visits are 2 pixels wide (not lost); zoomed in, the axis counts minutes or
    /// hours and the bars widen to their true width.
    @Test func multiDayTraceZoomsInTime() throws {
        let dir = try ReportTests.temporaryDirectory()
        let centre = XY(longitude: 8.5, latitude: 47.39)
        let home = Geodesic.wgs84.direct(latitude: centre.latitude, longitude: centre.longitude, azimuth: 90, distanceMeters: 500)
        var csv = "time,latitude,longitude\n"
        let t0 = Timestamp(seconds: 1_767_225_600)  // 2026-01-01
        for k in 0..<(3 * 86_400 / 30) {
            let s = k * 30
            let clock = s % 86_400
            let inside = (clock >= 43_200 && clock < 43_320) || (clock >= 64_800 && clock < 68_400)
            let p = inside ? (centre.latitude, centre.longitude) : (home.latitude, home.longitude)
            csv += "\(Timestamp(seconds: t0.seconds + Int64(s))),\(p.0),\(p.1)\n"
        }
        let trace = dir.appendingPathComponent("days.csv")
        try csv.write(to: trace, atomically: true, encoding: .utf8)
        let fence = Fence(
            index: 0, id: "office", kind: .circle(radiusMeters: 50), shape: .point(centre), zone: "work",
            location: SourceLocation(file: "office.geojson", line: 1))
        let fences = FenceSet(file: "office.geojson", fences: [fence])
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let evaluator = Evaluator(
            Evaluator.Configuration(
                replay: Replayer.Configuration(
                    fences: fences, frame: .transverseMercator(latitudeOfOrigin: 47.39, centralMeridian: 8.5), settings: settings,
                    workers: 1)))
        let evaluations = try evaluator.run([TraceInput(path: trace.path, label: "days")])
        let report = AccuracyReport(
            evaluations: evaluations, fences: fences, title: "days", generator: "fencesim test", truth: "clean trace", degradation: nil)
        #expect(report.visits.count == 6)
        let script = """
            var tl=document.querySelector('svg.timeline-svg');var r=tl.getBoundingClientRect();
            function axis(){return Array.prototype.map.call(tl.querySelectorAll('g.axis text'),function(t){return t.textContent;});}
            function widths(){return Array.prototype.map.call(tl.querySelectorAll('rect.tl-truth'),function(e){return e.style.display==='none'?-1:+e.getAttribute('width');});}
            out.duration=+tl.getAttribute('data-duration');out.axis0=axis();out.widths0=widths();
            for(var i=0;i<5;i++)tl.dispatchEvent(new WheelEvent('wheel',{deltaY:-500,clientX:r.left+r.width*(140+66600/259200*804)/960,clientY:r.top+r.height/2,bubbles:true,cancelable:true}));
            out.window=tl.getAttribute('data-window');out.axis1=axis();out.widths1=widths();
            """
        let run = try Browser.load(ReportHTML.render(report), testScript: script, name: "days.html")
        let r = run.results
        #expect(r["exception"] == nil, "\(r["exception"] ?? "")")
        let axis0 = try #require(r["axis0"] as? [String])
        // Ticks at UTC midnights and noons (the trace starts at midnight).
        #expect(axis0.starts(with: ["day 1", "day 1 12:00", "day 2", "day 2 12:00"]), "\(axis0)")
        let widths0 = try #require(r["widths0"] as? [Double])
        #expect(widths0.count == 6 && widths0.allSatisfy { $0 >= 2 }, "\(widths0)")
        // The 2-minute visits are at the minimum width; the 1-hour ones are wider.
        #expect(widths0.filter { $0 == 2 }.count == 3, "\(widths0)")
        let window = try #require((r["window"] as? String)?.split(separator: " ").compactMap { Double($0) })
        #expect(window[1] - window[0] < 7200, "\(window)")
        let axis1 = try #require(r["axis1"] as? [String])
        // Around 18:30 on the first day, by clock.
        #expect(!axis1.isEmpty && axis1.allSatisfy { $0.hasPrefix("day 1 18:") }, "\(axis1)")
        let widths1 = try #require(r["widths1"] as? [Double])
        #expect(widths1.contains { $0 > 20 }, "\(widths1)")
        #expect(Browser.problems(run.log).isEmpty, "\(Browser.problems(run.log))")
    }
}

@Suite struct TimelineFoldingTests {
    /// Past the fourth trace, timelines are folded under one summary, so that a report of many
    /// traces stays short; every trace still has its row in the by-trace table.
    @Test func timelinesPastTheFourthAreFolded() throws {
        let folder = try ReportTests.temporaryDirectory()
        let (fences, traces, frame) = try ReportTests.drives(in: folder)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let many = (0..<6).flatMap { k in traces.map { TraceInput(path: $0.path, label: "\($0.label)-\(k)") } }
        let evaluator = Evaluator(
            Evaluator.Configuration(
                replay: Replayer.Configuration(fences: fences, frame: frame, settings: settings, workers: 2), drawnEventsKept: 0))
        let report = AccuracyReport(
            evaluations: try evaluator.run(many), fences: fences, title: "many", generator: "fencesim test",
            truth: "clean trace", degradation: nil)
        let html = ReportHTML.render(report)
        let timelines = try #require(html.range(of: "<section><h2>Timelines</h2>"))
        let folded = try #require(html.range(of: "<details class=\"more\"><summary>Timelines of 8 more traces</summary>"))
        #expect(html[timelines.upperBound..<folded.lowerBound].components(separatedBy: "<figure class=\"timeline\">").count - 1 == 4)
        #expect(html[folded.upperBound...].components(separatedBy: "<figure class=\"timeline\">").count - 1 == 8)
        #expect(html.components(separatedBy: "<tr><td>drive-").count - 1 == 12)
    }
}
