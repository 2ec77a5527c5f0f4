import Support

extension OSProfile {
    /// Where a parameter's default comes from.
    public enum Provenance: Sendable, Equatable {
        /// A documentation page, SDK source or published measurement that gives the number.
        case cited(String)
        /// No source gives a number: the default is fencesim's assumption (the page, if any, says
        /// what is known).
        case assumed(String)

        /// The text written beside the value (`docs/profiles.md`, a profile file's comment).
        public var note: String {
            switch self {
            case .cited(let source): "source: \(source)"
            case .assumed(let why): "assumed: \(why)"
            }
        }
    }

    /// A parameter of a profile as a profile file writes it: its key, its value as text, and
    /// where the default comes from.
    public struct Parameter: Sendable, Equatable {
        public var key: String
        public var value: String
        public var provenance: Provenance
    }

    static let appleRegionGuide =
        "https://developer.apple.com/library/archive/documentation/UserExperience/Conceptual/LocationAwarenessPG/RegionMonitoring/RegionMonitoring.html"
    static let appleMonitoringFailure =
        "https://developer.apple.com/documentation/corelocation/clerror-swift.struct/code/regionmonitoringfailure"
    static let appleCLMonitor = "https://developer.apple.com/documentation/corelocation/clmonitor-2r51v"
    static let androidGuide = "https://developer.android.com/training/location/geofencing"
    static let androidBuilder = "https://developers.google.com/android/reference/com/google/android/gms/location/Geofence.Builder"
    static let androidRequest = "https://developers.google.com/android/reference/com/google/android/gms/location/GeofencingRequest.Builder"
    static let androidOverlap =
        "https://developer.radiusnetworks.com/proximitykit/android/docs/0.12.1/com/radiusnetworks/proximity/ProximityKitGeofenceNotifier.html (Google's note on Play services 3.2, quoted)"
    static let radiusNetworksField = "https://developer.radiusnetworks.com/2015/08/28/geofence-performance-testing.html"
    static let samplyField = "https://doi.org/10.3758/s13428-023-02213-2"

    /// The built-in profile named `name` (`ios-region`, `ios-monitor`, `android-geofencing`).
    public static func builtIn(_ platform: Platform) -> OSProfile {
        switch platform {
        case .iosRegion, .iosMonitor:
            return OSProfile(
                platform: platform, rule: .distanceAndTime, regionLimit: 20, beyondLimit: .refuse, refreshDistanceMeters: 1000,
                minimumRadiusMeters: 100, maximumRadiusMeters: nil,
                entryDistanceMeters: 200, entryDistanceCapShare: 0.5, exitDistanceMeters: 200, sameSideSeconds: 20,
                enterOverlapLarger: 0.85, enterOverlapSmaller: 0.75, exitOverlapLarger: 0.15, exitOverlapSmaller: 0.25,
                initialTrigger: platform == .iosMonitor ? .state : .none, loiteringDelaySeconds: nil, responsivenessSeconds: 0,
                delayMinimumSeconds: 0, delayMeanSeconds: 10, entryLoss: 0, exitLoss: 0, duplicateShare: 0, seed: 0)
        case .androidGeofencing:
            return OSProfile(
                platform: platform, rule: .accuracyOverlap, regionLimit: 100, beyondLimit: .refuse, refreshDistanceMeters: 1000,
                minimumRadiusMeters: 100, maximumRadiusMeters: nil,
                entryDistanceMeters: 0, entryDistanceCapShare: 0.5, exitDistanceMeters: 0, sameSideSeconds: 0,
                enterOverlapLarger: 0.85, enterOverlapSmaller: 0.75, exitOverlapLarger: 0.15, exitOverlapSmaller: 0.25,
                initialTrigger: .enter, loiteringDelaySeconds: nil, responsivenessSeconds: 0,
                delayMinimumSeconds: 0, delayMeanSeconds: 60, entryLoss: 0, exitLoss: 0, duplicateShare: 0, seed: 0)
        }
    }

    /// Every parameter with its value and provenance, in the order a profile file writes them.
    ///
    /// The provenance is the built-in default's: a value changed by a profile file or a fit
    /// still says where the platform's default comes from.
    public var parameters: [Parameter] {
        let ios = platform != .androidGeofencing
        func p(_ key: String, _ value: String, _ provenance: Provenance) -> Parameter {
            Parameter(key: key, value: value, provenance: provenance)
        }
        func n(_ v: Double) -> String { JSONWriter.number(v) }
        return [
            p(
                "platform", platform.rawValue,
                .cited(ios ? (platform == .iosMonitor ? OSProfile.appleCLMonitor : OSProfile.appleRegionGuide) : OSProfile.androidGuide)),
            p(
                "rule", rule.rawValue,
                ios
                    ? .cited("\(OSProfile.appleRegionGuide): a minimum distance over the boundary, then at least 20 s on the same side")
                    : .cited(OSProfile.androidOverlap)),
            p(
                "regionLimit", String(regionLimit),
                ios
                    ? (platform == .iosMonitor
                        ? .assumed(
                            "CLMonitor reports conditionLimitExceeded (\(OSProfile.appleCLMonitor)) without a number; the 20 of region monitoring"
                        )
                        : .cited(
                            "\(OSProfile.appleRegionGuide) (20 regions per app); fences past it fail with regionMonitoringFailure, \(OSProfile.appleMonitoringFailure)"
                        ))
                    : .cited(
                        "\(OSProfile.androidGuide) (100 geofences per app per device user; more fail with GEOFENCE_TOO_MANY_GEOFENCES)")),
            p(
                "beyondLimit", beyondLimit.rawValue,
                .cited(
                    ios
                        ? "\(OSProfile.appleMonitoringFailure): monitoring fails past the limit (refuse); registering the nearest is the app's strategy (\"I only want to monitor the closest 20\", cowbell/cordova-plugin-geofence#15)"
                        : "\(OSProfile.androidGuide): adding past the limit fails (refuse); registering the nearest is the app's strategy (transistorsoft background-geolocation activates the nearest 100)"
                )),
            p(
                "refreshDistance", n(refreshDistanceMeters),
                .assumed("with nearest: choose again after this many metres; transistorsoft's geofenceProximityRadius defaults to 1000 m")),
            p(
                "minimumRadius", n(minimumRadiusMeters),
                ios
                    ? .assumed("no documented minimum; small regions behave as larger ones in field reports (home-assistant/iOS#784)")
                    : .assumed("\(OSProfile.androidGuide) recommends at least 100-150 m; that it acts as a floor is assumed")),
            p(
                "maximumRadius", maximumRadiusMeters.map(n) ?? "none",
                ios
                    ? .assumed(
                        "CLLocationManager.maximumRegionMonitoringDistance is device-dependent (https://developer.apple.com/documentation/corelocation/cllocationmanager/maximumregionmonitoringdistance); no limit by default"
                    )
                    : .assumed("no maximum radius is documented")),
            p(
                "entryDistance", n(entryDistanceMeters),
                ios
                    ? .cited(
                        "\(OSProfile.appleRegionGuide): \"for testing purposes, you can assume that the minimum distance is approximately 200 meters\""
                    )
                    : .assumed("no distance beyond the overlap rule is documented")),
            p(
                "entryDistanceCap", n(entryDistanceCapShare),
                .assumed("an entry never needs more than this share of the radius past the boundary, so a small fence can be entered")),
            p(
                "exitDistance", n(exitDistanceMeters),
                ios
                    ? .cited("\(OSProfile.appleRegionGuide) (approximately 200 m, for testing)")
                    : .assumed("no distance beyond the overlap rule is documented")),
            p(
                "sameSide", n(sameSideSeconds),
                ios
                    ? .cited("\(OSProfile.appleRegionGuide): remain on the same side of the boundary for at least 20 seconds")
                    : .assumed("no confirmation time is documented")),
            p("enterOverlapLarger", n(enterOverlapLarger), .cited(OSProfile.androidOverlap)),
            p("enterOverlapSmaller", n(enterOverlapSmaller), .cited(OSProfile.androidOverlap)),
            p("exitOverlapLarger", n(exitOverlapLarger), .cited(OSProfile.androidOverlap)),
            p("exitOverlapSmaller", n(exitOverlapSmaller), .cited(OSProfile.androidOverlap)),
            p(
                "initialTrigger", initialTrigger.rawValue,
                ios
                    ? (platform == .iosMonitor
                        ? .cited(
                            "\(OSProfile.appleCLMonitor): events carry each condition's state; add(_:identifier:assuming:) sets the initial one"
                        )
                        : .cited(
                            "\(OSProfile.appleRegionGuide): region events are boundary crossings; requestState(for:) asks for the current state"
                        ))
                    : .cited("\(OSProfile.androidRequest): the default initial trigger is INITIAL_TRIGGER_ENTER | INITIAL_TRIGGER_DWELL")),
            p(
                "loiteringDelay", loiteringDelaySeconds.map(n) ?? "none",
                ios
                    ? .cited("\(OSProfile.appleRegionGuide): no dwell transition")
                    : .cited(
                        "\(OSProfile.androidBuilder) setLoiteringDelay: the delay between ENTER and DWELL; none when DWELL is not requested"
                    )),
            p(
                "responsiveness", n(responsivenessSeconds),
                ios
                    ? .assumed("iOS has no responsiveness setting")
                    : .cited("\(OSProfile.androidBuilder) setNotificationResponsiveness: best-effort, default 0")),
            p("delayMinimum", n(delayMinimumSeconds), .assumed("no documented lower bound")),
            p(
                "delayMean", n(delayMeanSeconds),
                ios
                    ? .assumed("field tests saw notifications \"nearly every time within 30 seconds\" (\(OSProfile.radiusNetworksField))")
                    : .assumed(
                        "\(OSProfile.androidGuide): latency is usually under 2 minutes, 2-3 minutes with background limits, up to 6 minutes when stationary"
                    )),
            p(
                "entryLoss", n(entryLoss),
                .assumed("82.5 % of 360 crossings were notified in one field study (\(OSProfile.samplyField)); loss off by default")),
            p(
                "exitLoss", n(exitLoss),
                .assumed("exits are reported missing in the field (cordova-background-geolocation-lt#408); loss off by default")),
            p(
                "duplicate", n(duplicateShare),
                .assumed("double ENTER/EXIT deliveries are reported (react-native-background-geolocation#2162); off by default")),
            p("seed", String(seed), .assumed("the seed of every draw")),
        ]
    }
}
