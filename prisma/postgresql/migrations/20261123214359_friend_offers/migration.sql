-- CreateTable
CREATE TABLE "FriendOffer" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "campaignUid" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'percentage',
    "value" TEXT,
    "eligibility" TEXT NOT NULL DEFAULT 'new_customers',
    "oncePerCustomer" BOOLEAN NOT NULL DEFAULT true,
    "minimumSubtotal" TEXT,
    "combinesOrder" BOOLEAN NOT NULL DEFAULT false,
    "combinesProduct" BOOLEAN NOT NULL DEFAULT false,
    "combinesShipping" BOOLEAN NOT NULL DEFAULT true,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "discountId" TEXT,
    "appliedSettings" TEXT,
    "segmentId" TEXT,
    "lastSyncAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FriendOffer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OfferCode" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "campaignUid" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'waiting',
    "redeemCodeId" TEXT,
    "detail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OfferCode_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "FriendOffer_shop_campaignUid_key" ON "FriendOffer"("shop", "campaignUid");

-- CreateIndex
CREATE INDEX "OfferCode_shop_code_idx" ON "OfferCode"("shop", "code");

-- CreateIndex
CREATE INDEX "OfferCode_shop_campaignUid_state_idx" ON "OfferCode"("shop", "campaignUid", "state");

-- CreateIndex
CREATE UNIQUE INDEX "OfferCode_shop_campaignUid_email_key" ON "OfferCode"("shop", "campaignUid", "email");
