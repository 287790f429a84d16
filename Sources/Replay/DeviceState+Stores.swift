/// Knowledge a device keeps across launches that more than one check reads (which BGTask
/// requests are pending, and of what type): one instance per device and type, made on first use.
///
/// A device-scoped check usually keeps it; launch-scoped checks and obligation deadlines read
/// it through ``ReplayContext/device``. Look it up on rare events only: it is a dictionary lookup.
public protocol DeviceStore: AnyObject {
    init()
}

extension DeviceState {
    /// This device's instance of `type`, made empty on first use.
    public func store<Store: DeviceStore>(_ type: Store.Type) -> Store {
        let key = ObjectIdentifier(type)
        if let store = stores[key] { return unsafeDowncast(store, to: Store.self) }
        let store = Store()
        stores[key] = store
        return store
    }
}
